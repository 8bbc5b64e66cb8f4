import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, listening } from "../helpers/ports.ts";
import { watchOutput } from "../helpers/processes.ts";

// `npm start` as a user or a process manager runs it: the portal and the mocks on the embedded database, then a
// SIGTERM to the command. Stopping it must stop everything it started, or the next start finds its ports taken.

const ports = { portal: 0, mocks: 0, smtp: 0, pglite: 0 };
const dataDir = mkdtempSync(path.join(tmpdir(), "pp-start-"));
let start: ChildProcess;

beforeAll(async () => {
  for (const key of Object.keys(ports) as Array<keyof typeof ports>) ports[key] = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "development",
    PORT: String(ports.portal),
    MOCKS_HTTP_PORT: String(ports.mocks),
    MOCKS_SMTP_PORT: String(ports.smtp),
    SMTP_PORT: String(ports.smtp),
    PGLITE_DIR: dataDir,
    PGLITE_PORT: String(ports.pglite),
    SKIP_WEB_BUILD: "true",
  };
  delete env.DATABASE_URL;
  start = spawn(process.execPath, ["scripts/start.mjs"], { env, stdio: ["ignore", "pipe", "pipe"] });
  await watchOutput(start, "Portal Pacientes listo", "npm start").ready;
}, 180_000);

afterAll(() => {
  if (start?.exitCode === null) start.kill("SIGKILL");
  rmSync(dataDir, { recursive: true, force: true });
});

describe("npm start", () => {
  it("serves the portal and the mocks, and a SIGTERM to the command stops both before it exits", async () => {
    expect(await listening(ports.portal)).toBe(true);
    expect(await listening(ports.mocks)).toBe(true);

    const exited = new Promise<number | null>((resolve) => start.once("exit", (code) => resolve(code)));
    start.kill("SIGTERM");
    expect(await exited).toBe(0);

    // Nothing the command started may outlive it: its ports are free the moment it is gone.
    expect(await listening(ports.portal)).toBe(false);
    expect(await listening(ports.mocks)).toBe(false);
    expect(await listening(ports.pglite)).toBe(false);
  }, 30_000);
});
