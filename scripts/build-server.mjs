// npm run build:server [-- <outdir>]: compiles the server, its commands and the mock providers to plain JavaScript
// (ESM, Node 20) so production runs `node dist/server/main.js` without a TypeScript loader. Each entry is one file with
// the project's own code (the generated Prisma client included); packages stay in node_modules (packages: "external").
//
// Layout contract: every bundle sits two folders below the application root (dist/<group>/<name>.js), beside
// prisma/ and node_modules/, exactly like the source files it replaces (server/db/*.ts) — server/db/migrate.ts finds
// prisma/migrations from its own address, so it finds them from the bundle too. No code splitting for that reason: a
// shared chunk would sit at another depth.
import { build } from "esbuild";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

export const serverEntries = {
  "server/main": "server/main.ts",
  "cli/migrate": "server/db/migrate.cli.ts",
  "cli/seed": "server/db/seed.cli.ts",
  "cli/user-create": "server/features/users/user-create.cli.ts",
  "mocks/start": "mocks/start.ts",
};

/** How every bundle is compiled (the bench compiles its own servers the same way: bench/support/compiled.ts). */
export const compileOptions = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  sourcemap: "linked",
  legalComments: "none",
  logLevel: "warning",
};

/**
 * Writes `contents` to `file` through a temporary file and a rename, so a process starting a bundle while another build
 * rewrites it (two stacks, or a stack and the bench, starting at once) reads the old file or the new one, never half.
 */
function writeAtomically(file, contents) {
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, file);
}

/** Builds every entry into `outdir` (default dist); returns the files written and the packages they import at run time. */
export async function buildServer(outdir = "dist") {
  const result = await build({ ...compileOptions, entryPoints: serverEntries, outdir, metafile: true, write: false });
  for (const { path: file, contents } of result.outputFiles) writeAtomically(file, contents);
  const outputs = Object.entries(result.metafile.outputs).filter(([file]) => file.endsWith(".js"));
  const packages = new Set();
  for (const [, output] of outputs) {
    for (const { path: specifier, external } of output.imports) {
      if (!external || specifier.startsWith("node:")) continue;
      packages.add(specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]);
    }
  }
  // Packages found by path at run time (createRequire(...).resolve("swagger-ui-dist/package.json")), which esbuild
  // cannot see as imports, are needed all the same.
  for (const output of result.outputFiles.filter((file) => file.path.endsWith(".js"))) {
    for (const match of output.text.matchAll(/\.resolve\(\s*["']((?:@[\w.-]+\/)?[\w.-]+)[/"']/g)) {
      packages.add(match[1]);
    }
  }
  const list = [...packages].sort();
  // The image keeps these (and what they depend on) in node_modules, nothing else (scripts/prune-runtime.mjs).
  writeAtomically(path.join(outdir, "runtime-packages.json"), `${JSON.stringify(list, null, 2)}\n`);
  return { files: outputs.map(([file]) => file), packages: list };
}

const isRunDirectly = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isRunDirectly) {
  const { files } = await buildServer(process.argv[2]);
  console.log(`Servidor compilado: ${files.join(", ")}`);
}
