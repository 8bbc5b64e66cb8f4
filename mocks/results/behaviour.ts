import type { FastifyInstance } from "fastify";

/**
 * How a provider mock answers: normally, as a provider that is down (503 on every call), or as one so slow that the
 * portal's timeout must fire. The mocks app mounts each provider three times, under its normal base and under
 * /fallas/caida/… and /fallas/lenta/…, so tests point the portal at a failing provider by configuration alone.
 */
export type MockBehaviour = "normal" | "down" | "slow" | FaultSwitch;

export const failureBases = { down: "/fallas/caida", slow: "/fallas/lenta" } as const;

/**
 * A provider whose behaviour changes while it runs, for fault runs (issue 24): mounted under /fallas/control/…, set with
 * `PUT /fallas/control?modo=normal|lenta|caida&ms=10000` and read (with the requests it received) at `GET /fallas/control`.
 */
export interface FaultSwitch {
  mode: "normal" | "down" | "slow";
  /** How long a slow answer takes (the client may give up first). */
  slowMs: number;
  /** Requests received under /fallas/control since the mocks started. */
  requests: number;
}

export const switchBase = "/fallas/control";

export function createFaultSwitch(): FaultSwitch {
  return { mode: "normal", slowMs: 10_000, requests: 0 };
}

const modes: Record<string, FaultSwitch["mode"]> = { normal: "normal", lenta: "slow", caida: "down" };

/** The control routes of a FaultSwitch. */
export function faultSwitchRoutes(app: FastifyInstance, state: FaultSwitch) {
  app.get(switchBase, async () => state);
  app.put<{ Querystring: { modo?: string; ms?: string } }>(switchBase, async (request, reply) => {
    const mode = modes[request.query.modo ?? ""];
    if (!mode) return reply.status(400).send({ error: "modo: normal, lenta o caida" });
    state.mode = mode;
    if (request.query.ms) state.slowMs = Number(request.query.ms);
    return state;
  });
}

/** Slow answers wait this long, or until the client gives up and closes the connection. */
const SLOW_ANSWER_MS = 60_000;

interface HeldRequest {
  raw: { destroyed: boolean; once(event: "close", listener: () => void): unknown };
}

function waitOrClose(request: HeldRequest, ms: number): Promise<void> {
  return new Promise<void>((resolve) => {
    // A client that gave up before this hook ran has already closed: its close event will not come again.
    if (request.raw.destroyed) return resolve();
    const timer = setTimeout(resolve, ms);
    timer.unref();
    request.raw.once("close", () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

export function applyBehaviour(app: FastifyInstance, behaviour: MockBehaviour, downBody: () => { type: string; body: unknown }) {
  if (typeof behaviour === "object") {
    const state = behaviour;
    app.addHook("onRequest", async (request, reply) => {
      state.requests += 1;
      if (state.mode === "down") {
        const { type, body } = downBody();
        return reply.status(503).type(type).send(body);
      }
      if (state.mode === "slow") await waitOrClose(request, state.slowMs);
    });
    return;
  }
  if (behaviour === "down") {
    app.addHook("onRequest", async (_request, reply) => {
      const { type, body } = downBody();
      return reply.status(503).type(type).send(body);
    });
  }
  if (behaviour === "slow") {
    app.addHook("onRequest", async (request) => waitOrClose(request, SLOW_ANSWER_MS));
  }
}
