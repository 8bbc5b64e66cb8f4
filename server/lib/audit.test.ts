import { describe, expect, it } from "vitest";
import { audit, recordAudit, type AuditEntry } from "./audit.ts";

/**
 * A stand-in for the connection a batch is written with (deps.sql) that records each INSERT's rows (read back by the
 * statement's own column list, so a value in the wrong column fails here) and lets the test decide when it commits.
 */
function recordingWriter() {
  const statements: Array<{ rows: Array<Record<string, unknown>>; commit: (error?: Error) => void }> = [];
  const writer = (text: string, values: unknown[] = []) => {
    const columns = [...text.split("VALUES")[0]!.matchAll(/"(\w+)"/g)].map((match) => match[1]!).slice(1); // [0] is the table
    const rows = Array.from({ length: values.length / columns.length }, (_, row) =>
      Object.fromEntries(columns.map((column, index) => [column, values[row * columns.length + index]])),
    );
    return new Promise<{ rows: unknown[] }>((resolve, reject) => {
      statements.push({ rows, commit: (error) => (error ? reject(error) : resolve({ rows: [] })) });
    });
  };
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
    expect(statements[1]!.rows.map((row) => row.resourceId)).toEqual(["2", "3", "4"]);
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

describe("audit (the one helper every feature audits with)", () => {
  const written = async (...args: Parameters<typeof audit> extends [unknown, ...infer Rest] ? Rest : never) => {
    const { writer, statements } = recordingWriter();
    const done = audit({ sql: writer }, ...args);
    await tick();
    statements[0]!.commit();
    await done;
    return statements[0]!.rows[0];
  };

  it("names the actor, the address, the resource from the action, and outcome ok by default", async () => {
    expect(await written({ id: 7, roleType: 0 }, { ip: "10.0.0.1" }, { action: "bill.read", resourceId: 12, patientId: 3 })).toEqual(
      expect.objectContaining({
        actorId: 7,
        actorRole: 0,
        ip: "10.0.0.1",
        action: "bill.read",
        resource: "bill",
        resourceId: "12",
        patientId: 3,
        outcome: "ok",
      }),
    );
  });

  it("makes a patient target the row's patient and its id the resource id; a staff target is no patient", async () => {
    const actor = { id: 1, roleType: 0 };
    expect(await written(actor, null, { action: "user.update", target: { id: 40, roleType: 2 } })).toEqual(
      expect.objectContaining({ resource: "user", resourceId: "40", patientId: 40 }),
    );
    expect(await written(actor, null, { action: "user.update", target: { id: 41, roleType: 1 }, patientId: 9 })).toEqual(
      expect.objectContaining({ resourceId: "41", patientId: 9 }),
    );
  });

  it("writes the portal's own actions (no actor, no address) with an explicit resource and outcome", async () => {
    expect(
      await written(null, undefined, { action: "payment.reconcile", resource: "PaymentTransaction", resourceId: "b-1", outcome: "failed" }),
    ).toEqual(
      expect.objectContaining({
        actorId: null,
        actorRole: null,
        ip: null,
        resource: "PaymentTransaction",
        resourceId: "b-1",
        outcome: "failed",
      }),
    );
  });
});
