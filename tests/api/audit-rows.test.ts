import { afterAll, beforeAll, expect, it } from "vitest";
import { recordAudit } from "../../server/lib/audit.ts";
import { freshDatabase, type FreshDatabase } from "../helpers/fresh-database.ts";

// The audit rows are written in parameterised SQL (one INSERT per group of requests), not through the model API: what
// the model read back must be what was recorded, with the time of the write.

let fresh: FreshDatabase;
beforeAll(async () => {
  fresh = await freshDatabase(process.env.TEST_DATABASE_URL, "pp_test", { seeded: false });
});
afterAll(async () => {
  await fresh.drop();
});

it.each([
  ["a Prisma client (a transaction's rows, operator commands)", () => fresh.db.prisma],
  ["the pool's own connections (the rows of requests)", () => fresh.db.executeSql],
] as const)(
  "an audit row written in SQL through %s reads back through Prisma with its fields, its JSON and the time it was written",
  async (_, target) => {
    // The trail refuses DELETE and TRUNCATE: each case reads only the rows it wrote.
    const after = (await fresh.db.prisma.auditEvent.aggregate({ _max: { id: true } }))._max.id ?? 0;
    // The portal of a clinic in Chile: the row's time is still UTC, as Prisma writes it.
    const zone = process.env.TZ;
    process.env.TZ = "America/Santiago";
    const before = Date.now();
    const billRead = {
      action: "bill.read",
      resource: "bill",
      patientId: 3,
      actorId: 7,
      actorRole: 0,
      ip: "10.0.0.1",
      before: { a: 1 },
      after: [1, "x"],
    } as const;
    await Promise.all([
      recordAudit(target(), { ...billRead, resourceId: 12 }),
      recordAudit(target(), { action: "payment.reconcile", resource: "PaymentTransaction", outcome: "failed" }),
    ]);
    process.env.TZ = zone;
    const rows = await fresh.db.prisma.auditEvent.findMany({ where: { id: { gt: after } }, orderBy: { id: "asc" } });
    expect(rows).toEqual([
      expect.objectContaining({ ...billRead, resourceId: "12", outcome: "ok" }),
      expect.objectContaining({
        action: "payment.reconcile",
        actorId: null,
        actorRole: null,
        resourceId: null,
        patientId: null,
        ip: null,
        before: null,
        after: null,
        outcome: "failed",
      }),
    ]);
    for (const row of rows) {
      expect(row.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1);
      expect(row.createdAt.getTime()).toBeLessThanOrEqual(Date.now() + 1);
    }
  },
);
