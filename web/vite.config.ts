import path from "node:path";
import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { compression } from "vite-plugin-compression2";

const here = path.dirname(fileURLToPath(import.meta.url));

/** The web reaches the server only through the contract and the AppRouter type (same paths as tsconfig.json). */
export const webAliases = {
  "@contract": path.resolve(here, "../server/contract"),
  "@server-router": path.resolve(here, "../server/trpc/router.ts"),
};

// The built app is served by the Fastify server from dist/web; `npm run dev:web` proxies the API to it.
export default defineConfig({
  root: here,
  // Every text asset also written as .br and .gz at build time, at the highest levels: the server sends them as they
  // are (@fastify/static preCompressed), so nothing is compressed per request.
  plugins: [react(), compression({ algorithms: ["brotliCompress", "gzip"], threshold: 512 })],
  resolve: {
    alias: [
      ...Object.entries(webAliases).map(([find, replacement]) => ({ find, replacement })),
      // The contract's validation rules run on the browser's RegExp here, not on re2js (see linear-pattern.ts).
      { find: /^\.\/linear-pattern\.ts$/, replacement: path.resolve(here, "../server/contract/linear-pattern.browser.ts") },
    ],
  },
  build: {
    outDir: path.resolve(here, "../dist/web"),
    emptyOutDir: true,
    // Source maps would publish the whole source under /assets/*.js.map (issue 9); the dev server has its own.
    sourcemap: false,
    // scripts/web-weight.mjs reads it to weigh what the login page loads first.
    manifest: true,
    rollupOptions: {
      output: {
        // React and the data layer change rarely: separate chunks stay cached across releases.
        manualChunks(id: string) {
          if (/node_modules\/(react|react-dom|scheduler|react-router)\//.test(id)) return "react";
          if (/node_modules\/(@tanstack|@trpc)\//.test(id)) return "data";
          if (/node_modules\/zod\//.test(id)) return "zod";
          if (/node_modules\/crypto-js\//.test(id)) return "crypto";
          if (/node_modules\/re2js\//.test(id)) return "re2";
          return undefined;
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: { "/api": "http://localhost:4200", "/trpc": "http://localhost:4200" },
  },
});
