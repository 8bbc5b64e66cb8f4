import { describe, expect, it } from "vitest";
import { recordAudit, type AuditEntry } from "./audit.ts";

/** A stand-in for Prisma's auditEvent delegate that records each statement and lets the test decide when it commits. */
function recordingWriter() {
  const statements: Array<{ rows: unknown[]; commit: (error?: Error) => void }> = [];
  const statement = (rows: unknown[]) =>
    new Promise<unknown>((resolve, reject) => {
      statements.push({ rows, commit: (error) => (error ? reject(error) : resolve({ count: rows.length })) });
    });
  const writer = {
    auditEvent: {
      create: ({ data }: { data: unknown }) => statement([data]),
      createMany: ({ data }: { data: unknown[] }) => statement(data),
    },
  } as unknown as Parameters<typeof recordAudit>[0];
  return { writer, statements };
}

const entry = (resourceId: number): AuditEntry => ({ action: "bill.list", resource: "bill", resourceId, actorId: 1 });
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("audit group commit", () => {
  it("writes the row of an idle portal at once, in a statement of its own", async () => {
    const { writer, statements } = recordingWriter();
    const written = recordAudit(writer, entry(1));
    await tick();
    expect(statements).toHaveLength(1);
    expect(statements[0]!.rows).toEqual([expect.objectContaining({ resourceId: "1", action: "bill.list", outcome: "ok" })]);
    statements[0]!.commit();
    await expect(written).resolves.toBeUndefined();
  });

  it("gathers the rows recorded while a write is on its way into one INSERT, and answers each caller after its own row is committed", async () => {
    const { writer, statements } = recordingWriter();
    const first = recordAudit(writer, entry(1));
    await tick();
    let laterSettled = 0;
    const later = [2, 3, 4].map((id) => recordAudit(writer, entry(id)).then(() => laterSettled++));
    await tick();
    expect(statements).toHaveLength(1); // the later rows wait for the first statement
    statements[0]!.commit();
    await first;
    await tick();
    expect(statements).toHaveLength(2);
    expect(statements[1]!.rows.map((row) => (row as { resourceId: string }).resourceId)).toEqual(["2", "3", "4"]);
    expect(laterSettled).toBe(0);
    statements[1]!.commit();
    await Promise.all(later);
    expect(laterSettled).toBe(3);
  });

  it("fails every caller of a statement that fails, and still writes the rows that came after", async () => {
    const { writer, statements } = recordingWriter();
    const first = recordAudit(writer, entry(1));
    await tick();
    const second = recordAudit(writer, entry(2));
    statements[0]!.commit(new Error("database down"));
    await expect(first).rejects.toThrow("database down");
    await tick();
    statements[1]!.commit();
    await expect(second).resolves.toBeUndefined();
  });

  it("keeps the rows of a transaction client apart from the shared client's batch", async () => {
    const shared = recordingWriter();
    const transaction = recordingWriter();
    const a = recordAudit(shared.writer, entry(1));
    const b = recordAudit(transaction.writer, entry(2));
    await tick();
    expect(shared.statements).toHaveLength(1);
    expect(transaction.statements).toHaveLength(1);
    shared.statements[0]!.commit();
    transaction.statements[0]!.commit();
    await Promise.all([a, b]);
  });
});
