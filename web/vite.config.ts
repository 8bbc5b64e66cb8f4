import path from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const here = path.dirname(fileURLToPath(import.meta.url));

// The built app is served by the Fastify server from dist/web; `npm run dev:web` proxies the API to it.
export default defineConfig({
  root: here,
  plugins: [react()],
  build: { outDir: path.resolve(here, "../dist/web"), emptyOutDir: true, sourcemap: true },
  server: {
    port: 5173,
    proxy: { "/api": "http://localhost:4200", "/trpc": "http://localhost:4200" },
  },
});
