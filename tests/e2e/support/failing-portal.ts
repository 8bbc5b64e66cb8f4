import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

// A second e2e portal whose laboratory and imaging are the mocks' failing providers (/fallas/caida/…), on ports of
// its own (E2E_PORT_OFFSET + 500), for the specs that check what a patient sees when a provider is down.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const offset = Number(process.env.E2E_PORT_OFFSET ?? 0) + 500;

/** The failing portal's address. */
export const failingPortalUrl = `http://localhost:${4210 + offset}`;

/** Starts the failing portal and waits until it answers; returns its stop function. */
export async function startFailingPortal(): Promise<() => Promise<void>> {
  const child: ChildProcess = spawn("npx", ["tsx", "tests/e2e/support/e2e-server.ts"], {
    cwd: root,
    env: { ...process.env, E2E_PORT_OFFSET: String(offset), E2E_PROVIDERS: "caida" },
    stdio: "ignore",
    detached: true,
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${failingPortalUrl}/api/rcr/v1/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error("the failing e2e portal did not start");
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return async () => {
    if (child.pid) process.kill(-child.pid, "SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 300));
  };
}
