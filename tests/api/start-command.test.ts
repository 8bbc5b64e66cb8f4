import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
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

  it("refuses to start, saying which port, when something already listens on one of its ports (another npm start)", async () => {
    const ports = { portal: await freePort(), mocks: await freePort(), smtp: await freePort() };
    const other = createServer(() => {});
    await new Promise<void>((resolve) => other.listen(ports.mocks, "127.0.0.1", resolve));
    try {
      const child = spawn(process.execPath, ["scripts/start.mjs"], {
        env: {
          ...process.env,
          PORT: String(ports.portal),
          MOCKS_HTTP_PORT: String(ports.mocks),
          MOCKS_SMTP_PORT: String(ports.smtp),
          SKIP_WEB_BUILD: "true",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      started.push({ command: child, dataDir: mkdtempSync(path.join(tmpdir(), "pp-start-")) });
      let output = "";
      child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
      expect(code).toBe(1);
      expect(output).toContain(`No se puede iniciar: ya hay algo escuchando en el puerto de los proveedores simulados (${ports.mocks})`);
      expect(output).not.toContain("Portal Pacientes listo");
      // It started nothing: its own portal port stays free.
      expect(await listening(ports.portal)).toBe(false);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  });
});
