import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort, listening } from "../helpers/ports.ts";
import { watchOutput } from "../helpers/processes.ts";

// `npm start` as a user or a process manager runs it: the portal and the mocks on the embedded database, then a
// SIGTERM to the command. Stopping it must stop everything it started, or the next start finds its ports taken.

const started: Array<{ command: ChildProcess; dataDir: string }> = [];

async function startPortal(command: string, args: string[]) {
  const ports = { portal: await freePort(), mocks: await freePort(), smtp: await freePort(), pglite: await freePort() };
  const dataDir = mkdtempSync(path.join(tmpdir(), "pp-start-"));
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
  const child = spawn(command, args, { env, stdio: ["ignore", "pipe", "pipe"] });
  started.push({ command: child, dataDir });
  await watchOutput(child, "Portal Pacientes listo", "npm start").ready;
  return { child, ports };
}

const allClosed = async (ports: Record<string, number>) => {
  for (const port of Object.values(ports)) if (await listening(port)) return false;
  return true;
};

afterAll(() => {
  for (const { command, dataDir } of started) {
    if (command.exitCode === null) command.kill("SIGKILL");
    rmSync(dataDir, { recursive: true, force: true });
  }
});

describe("npm start", () => {
  it("serves the portal and the mocks, and a SIGTERM to the command stops both before it exits", async () => {
    const { child, ports } = await startPortal(process.execPath, ["scripts/start.mjs"]);
    expect(await listening(ports.portal)).toBe(true);
    expect(await listening(ports.mocks)).toBe(true);

    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);

    // Nothing the command started may outlive it: its ports are free the moment it is gone.
    expect(await allClosed(ports)).toBe(true);
  }, 180_000);

  it("stops everything when npm itself gets the SIGTERM (npm does not pass it on to the script)", async () => {
    const { child, ports } = await startPortal("npm", ["start", "--silent"]);
    expect(await listening(ports.portal)).toBe(true);
    child.kill("SIGTERM");
    // The script notices that npm is gone and stops the portal and the mocks (their grace period included).
    await expect.poll(() => allClosed(ports), { timeout: 20_000, interval: 250 }).toBe(true);
  }, 180_000);
});
