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

/** Modules the login page needs before it shows (public/PublicShell.tsx and its static imports). */
const shellModules =
  /[\\/](web[\\/]src[\\/](public[\\/]|app[\\/]overlays[\\/]|features[\\/]auth[\\/](AuthLayout|LoginForm|LoginExternalLinks|PatientLoginPage|api[\\/]auth\.api)\.|components[\\/]ui[\\/](Banner|Button|PasswordField|TextField|icons)\.|lib[\\/](plain-storage|trpc-client|clinic|clinic-settings|navigation|use-action|use-form|overlay-store|rut-input|hidden-pages|session-questions)\.)|server[\\/]contract[\\/](clinics|rut|roles|menu|linear-pattern[.\\w]*)\.ts)/;

/** The signed-in app's frame (app/App.tsx's static imports), loaded by every signed-in page before it shows. */
const appModules =
  /node_modules[\\/](react-router|@tanstack|@trpc[\\/]tanstack-react-query|crypto-js)[\\/]|web[\\/]src[\\/](app[\\/](guards|layouts)|lib)[\\/]|server[\\/]contract[\\/]profile\.ts/;

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
        // Libraries change rarely: separate chunks stay cached across releases. Split along what the public pages
        // load first (React, the plain tRPC client) and what loads on demand (the router, React Query, zod,
        // crypto-js) — see public/PublicShell.tsx (issue 14). A group takes its modules' dependencies too, unless a
        // group of higher priority took them first (so React Query's chunk does not swallow the tRPC client).
        codeSplitting: {
          groups: [
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 60 },
            { name: "trpc", test: /node_modules[\\/]@trpc[\\/](client|server)[\\/]/, priority: 50 },
            { name: "zod", test: /node_modules[\\/]zod[\\/]/, priority: 30 },
            // The signed-in app's frame — router, React Query, crypto-js, guards, layouts, lib — in one chunk, and the
            // pages' shared components in another: on a first load each chunk is a request, and on a mobile
            // connection (HTTP/1.1, a few connections) a request costs a round trip.
            { name: "app", test: appModules, priority: 20 },
            { name: "ui", test: /web[\\/]src[\\/]components[\\/]/, priority: 4 },
            { name: "re2", test: /node_modules[\\/]re2js[\\/]/, priority: 10 },
            // The public shell's own modules in one chunk: each request of the first load costs a round trip, and a
            // mobile browser opens few connections at a time (HTTP/1.1), so many small chunks delay the login page.
            { name: "shell", test: shellModules, priority: 25 },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    // /claveunica/ingresar and /claveunica/retorno are the server's; /claveunica/listo is the web app's page.
    proxy: {
      "/api": "http://localhost:4200",
      "/trpc": "http://localhost:4200",
      "^/claveunica/(ingresar|retorno)": "http://localhost:4200",
    },
  },
});
