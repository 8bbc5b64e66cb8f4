import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

// A second e2e portal whose providers are the mocks' failing ones (/fallas/caida/…), on ports of its own, for the specs
// that check what a patient sees when a provider is down. Each spec that starts one names its own slot: the two
// workers may run two such specs at once, and two portals on one port would leave one of them unable to start.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
const slots = { "providers-down": 0, appointments: 1 } as const;
export type FailingPortalSlot = keyof typeof slots;

/** The E2E_PORT_OFFSET of a slot's failing portal: 500, 520, … past the main e2e portal's. */
function offsetOf(slot: FailingPortalSlot): number {
  return Number(process.env.E2E_PORT_OFFSET ?? 0) + 500 + slots[slot] * 20;
}

/** The address of a slot's failing portal. */
export function failingPortalUrl(slot: FailingPortalSlot): string {
  return `http://localhost:${4210 + offsetOf(slot)}`;
}

/** Starts the slot's failing portal and waits until it answers; returns its stop function. */
export async function startFailingPortal(slot: FailingPortalSlot): Promise<() => Promise<void>> {
  const offset = offsetOf(slot);
  const url = failingPortalUrl(slot);
  const child: ChildProcess = spawn("npx", ["tsx", "tests/e2e/support/e2e-server.ts"], {
    cwd: root,
    env: { ...process.env, E2E_PORT_OFFSET: String(offset), E2E_PROVIDERS: "caida" },
    stdio: "ignore",
    detached: true,
  });
  const deadline = Date.now() + 90_000;
  for (;;) {
    try {
      if ((await fetch(`${url}/api/rcr/v1/health`)).ok) break;
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
