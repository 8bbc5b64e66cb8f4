// The JavaScript a first visit to the login page downloads, gzip-compressed, from the build's manifest: the entry
// chunk (the public shell, web/src/public/PublicShell.tsx, with the login page in it) and every chunk it imports
// statically, recursively; chunks loaded on demand (the signed-in app, the forms' validation, crypto-js) are not
// counted. Should the login page become a chunk of its own again, it is counted too. Issue 14's budget: 100 KB.
// Exits 1 above it; npm run test:lighthouse checks it too. Usage: node scripts/web-weight.mjs [dist/web]
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

export const LOGIN_JS_BUDGET_BYTES = 100 * 1024;
const loginPage = "src/features/auth/PatientLoginPage.tsx";

/** Chunks (file → gzip bytes) the login page loads before it shows. */
export function loginPageChunks(distDir) {
  const manifest = JSON.parse(readFileSync(path.join(distDir, ".vite/manifest.json"), "utf8"));
  const entry = Object.keys(manifest).find((key) => manifest[key].isEntry);
  const chunks = new Map();
  const visit = (key) => {
    const chunk = manifest[key];
    if (!chunk || chunks.has(chunk.file)) return;
    chunks.set(chunk.file, gzipSync(readFileSync(path.join(distDir, chunk.file)), { level: 9 }).length);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(entry);
  // A lazily loaded login page is a chunk of its own; otherwise it is inside the entry's chunks already.
  if (manifest[loginPage]) visit(loginPage);
  return chunks;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const distDir = process.argv[2] ?? "dist/web";
  const chunks = loginPageChunks(distDir);
  let total = 0;
  for (const [file, bytes] of [...chunks].sort((a, b) => b[1] - a[1])) {
    total += bytes;
    console.log(`${(bytes / 1024).toFixed(1).padStart(7)} KB  ${file}`);
  }
  const ok = total <= LOGIN_JS_BUDGET_BYTES;
  console.log(
    `${(total / 1024).toFixed(1).padStart(7)} KB  JavaScript de la página de inicio de sesión (gzip), presupuesto 100 KB: ${ok ? "OK" : "EXCEDIDO"}`,
  );
  process.exit(ok ? 0 : 1);
}
