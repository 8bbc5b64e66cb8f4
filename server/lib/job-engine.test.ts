import { describe, expect, it } from "vitest";
import { createJobEngine } from "./job-engine.ts";

// A held engine (main.ts holds it while the warm-up runs inside a transaction that is rolled back): nothing may reach
// the database through it, or a job would be queued into that transaction and lost, or fetched and done twice.

describe("a held job engine", () => {
  it("refuses sends and starts, and sends no SQL, until keepStarting()", async () => {
    const statements: string[] = [];
    const engine = createJobEngine({
      sql: async (text) => {
        statements.push(text);
        return { rows: [] };
      },
      log: { warn: () => {} },
    });
    engine.registerJob("correo", { queue: {}, handler: async () => {} });
    engine.hold();
    await expect(engine.send("correo", { to: "alguien@correo.cl" })).rejects.toThrow(/held while the process warms up/);
    await expect(engine.start()).rejects.toThrow(/held while the process warms up/);
    expect(statements).toEqual([]);
    await engine.stop();
  });

  it("cannot be held once it has started", async () => {
    const engine = createJobEngine({ sql: async () => ({ rows: [] }), log: { warn: () => {} } });
    void engine.start().catch(() => {});
    expect(() => engine.hold()).toThrow(/already started/);
    await engine.stop();
  });
});
