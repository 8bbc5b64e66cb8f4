import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../helpers/ports.ts";

// One way to configure (scripts/env-file.mjs): a `.env` in the directory a command runs in is read at start, and the
// environment wins over it. Shown on the mock providers, started as `npm run mocks` starts them.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const tsx = pathToFileURL(path.join(root, "node_modules/tsx/dist/loader.mjs")).href;
let dir: string;
const started: ChildProcess[] = [];

/** Starts mocks/start.ts in `dir` and resolves with the address it says it listens on. */
function startMocksIn(cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const child = spawn(process.execPath, ["--import", tsx, path.join(root, "mocks/start.ts")], {
    cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  started.push(child);
  let output = "";
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (chunk) => {
      output += chunk;
      const ready = /Simuladores listos en (\S+)/.exec(output);
      if (ready) resolve(ready[1]!);
    });
    child.stderr!.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => reject(new Error(`mocks exited with ${code}: ${output}`)));
  });
}

const baseEnv = () => {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "test", MOCKS_HOST: "127.0.0.1" };
  return env;
};

beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "env-file-"));
});

afterAll(() => {
  for (const child of started) child.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

describe(".env at start", () => {
  it("is read when it exists, and a variable in the environment wins over it", async () => {
    const [filePort, envPort] = [await freePort(), await freePort()];
    writeFileSync(path.join(dir, ".env"), `# copied from .env.example\nMOCKS_HTTP_PORT=${filePort}\nMOCKS_SMTP_PORT=0\n`);

    expect(await startMocksIn(dir, baseEnv())).toBe(`http://127.0.0.1:${filePort}`);
    expect(await startMocksIn(dir, { ...baseEnv(), MOCKS_HTTP_PORT: String(envPort) })).toBe(`http://127.0.0.1:${envPort}`);
  });

  it("is optional: without one the defaults and the environment apply", async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), "env-file-none-"));
    try {
      const port = await freePort();
      expect(await startMocksIn(empty, { ...baseEnv(), MOCKS_HTTP_PORT: String(port), MOCKS_SMTP_PORT: "0" })).toBe(
        `http://127.0.0.1:${port}`,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
