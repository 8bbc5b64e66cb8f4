import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestContext, type TestContext } from "../helpers/test-app.ts";

// The audit table keeps every row it was given: the database itself refuses to change or remove them, whoever asks.

let ctx: TestContext;
let id = 0;
beforeAll(async () => {
  ctx = await createTestContext();
  id = (await ctx.db.prisma.auditEvent.create({ data: { action: "bill.read", resource: "bill", resourceId: "1", actorId: 1 } })).id;
});
afterAll(() => ctx.close());

const rowNow = () => ctx.db.prisma.auditEvent.findUniqueOrThrow({ where: { id } });

describe("the audit trail is append-only", () => {
  it("refuses to update a row, through Prisma and through SQL", async () => {
    await expect(ctx.db.prisma.auditEvent.update({ where: { id }, data: { outcome: "denied" } })).rejects.toThrow(/solo admite agregar/);
    await expect(ctx.db.prisma.$executeRawUnsafe(`UPDATE "AuditEvent" SET "actorId" = 99 WHERE id = $1`, id)).rejects.toThrow(
      /solo admite agregar/,
    );
    expect(await rowNow()).toMatchObject({ outcome: "ok", actorId: 1 });
  });

  it("refuses to delete rows, one or all", async () => {
    await expect(ctx.db.prisma.auditEvent.delete({ where: { id } })).rejects.toThrow(/solo admite agregar/);
    await expect(ctx.db.prisma.auditEvent.deleteMany({})).rejects.toThrow(/solo admite agregar/);
    await expect(ctx.db.prisma.$executeRawUnsafe(`TRUNCATE "AuditEvent"`)).rejects.toThrow(/solo admite agregar/);
    expect(await rowNow()).toMatchObject({ id });
  });

  it("still takes new rows", async () => {
    const before = await ctx.db.prisma.auditEvent.count();
    await ctx.db.prisma.auditEvent.create({ data: { action: "bill.list", resource: "bill" } });
    expect(await ctx.db.prisma.auditEvent.count()).toBe(before + 1);
  });
});
