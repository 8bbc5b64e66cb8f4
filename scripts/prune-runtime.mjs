// node scripts/prune-runtime.mjs [<app folder>]: keeps in <app folder>/node_modules only what the compiled bundles can
// load at run time, for the production image (Dockerfile, stage prod-deps; issue 34). `npm ci --omit=dev` still
// installs the Prisma CLI and TypeScript (optional peers of @prisma/client, 150 MB with Prisma Studio) and the web
// app's packages (React, already bundled into dist/web). Kept: the packages the bundles import (dist/runtime-packages.json,
// written by scripts/build-server.mjs) and everything they depend on, found as Node resolves it. Also dropped: the
// Prisma query compilers of other databases than PostgreSQL and TypeScript declarations. tests/api/runtime-image.test.ts
// runs the bundles on the pruned folder.
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";

/** Bytes under a folder (files only, symbolic links not followed). */
export function folderBytes(dir) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) total += folderBytes(full);
    else if (entry.isFile()) total += statSync(full).size;
  }
  return total;
}

/** The folder Node would load `name` from, starting at the package folder `from` and walking up to `appDir`. */
function resolvePackage(name, from, appDir) {
  let dir = from;
  for (;;) {
    const candidate = path.join(dir, "node_modules", name);
    if (existsSync(path.join(candidate, "package.json"))) return candidate;
    if (path.resolve(dir) === path.resolve(appDir)) return null;
    const parent = path.dirname(dir);
    // From node_modules/a/node_modules/b, the next place to look is node_modules/a, then the app folder.
    dir = path.basename(parent) === "node_modules" ? path.dirname(parent) : parent;
    if (!dir.startsWith(path.resolve(appDir))) return null;
  }
}

/** Peers asked for their types only (@trpc/server names TypeScript): no bundle ever loads them. */
const typeOnlyPeers = new Set(["typescript"]);

/** Every package folder the roots need at run time: dependencies, optional ones present, non-optional peers. */
export function runtimeClosure(appDir, roots) {
  const kept = new Set();
  const missing = [];
  const queue = roots.map((name) => ({ name, from: appDir, optional: false }));
  while (queue.length) {
    const { name, from, optional } = queue.shift();
    const dir = resolvePackage(name, from, appDir);
    if (!dir) {
      if (!optional) missing.push(name);
      continue;
    }
    if (kept.has(dir)) continue;
    kept.add(dir);
    const manifest = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
    const optionalPeers = manifest.peerDependenciesMeta ?? {};
    for (const dep of Object.keys(manifest.dependencies ?? {})) queue.push({ name: dep, from: dir, optional: false });
    for (const dep of Object.keys(manifest.optionalDependencies ?? {})) queue.push({ name: dep, from: dir, optional: true });
    for (const dep of Object.keys(manifest.peerDependencies ?? {})) {
      if (!optionalPeers[dep]?.optional && !typeOnlyPeers.has(dep)) queue.push({ name: dep, from: dir, optional: true });
    }
  }
  return { kept, missing };
}

/** Package folders under a node_modules folder (scoped ones included), not descending into them. */
function packageFolders(nodeModules) {
  if (!existsSync(nodeModules)) return [];
  const folders = [];
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith(".")) continue;
    const full = path.join(nodeModules, entry.name);
    if (entry.name.startsWith("@")) {
      for (const scoped of readdirSync(full, { withFileTypes: true })) if (scoped.isDirectory()) folders.push(path.join(full, scoped.name));
    } else folders.push(full);
  }
  return folders;
}

/** Files no process of the portal reads: declarations, and Prisma's query compilers for other databases. */
const unusedFile = (dir, name) =>
  /\.d\.[cm]?ts$/.test(name) ||
  (dir.endsWith(path.join("@prisma", "client", "runtime")) && /\.(mysql|sqlite|sqlserver|cockroachdb)\./.test(name));

function removeUnusedFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) removeUnusedFiles(full);
    else if (entry.isFile() && unusedFile(dir, entry.name)) rmSync(full);
  }
}

/** Prunes appDir/node_modules to the run-time closure of `roots`; returns what it kept and the sizes in bytes. */
export function pruneNodeModules(appDir, roots) {
  const nodeModules = path.join(appDir, "node_modules");
  const before = folderBytes(nodeModules);
  const { kept, missing } = runtimeClosure(appDir, roots);
  if (missing.length) throw new Error(`Faltan paquetes que el servidor necesita: ${missing.join(", ")}`);
  const removed = [];
  const sweep = (folder) => {
    for (const dir of packageFolders(folder)) {
      if (kept.has(dir)) sweep(path.join(dir, "node_modules"));
      else {
        rmSync(dir, { recursive: true, force: true });
        removed.push(path.relative(nodeModules, dir));
      }
    }
  };
  sweep(nodeModules);
  rmSync(path.join(nodeModules, ".bin"), { recursive: true, force: true });
  removeUnusedFiles(nodeModules);
  return { kept: [...kept].map((dir) => path.relative(nodeModules, dir)).sort(), removed, before, after: folderBytes(nodeModules) };
}

const isRunDirectly = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isRunDirectly) {
  const appDir = path.resolve(process.argv[2] ?? ".");
  const roots = JSON.parse(readFileSync(path.join(appDir, "dist/runtime-packages.json"), "utf8"));
  const { kept, removed, before, after } = pruneNodeModules(appDir, roots);
  const mb = (bytes) => (bytes / 1024 / 1024).toFixed(0);
  console.log(`node_modules: ${mb(before)} MB → ${mb(after)} MB (${kept.length} paquetes; ${removed.length} quitados).`);
}
