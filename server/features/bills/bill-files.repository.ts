import type { Database } from "../../db/database.ts";

// The bytes of uploaded PDFs go to PostgreSQL as binary parameters of one INSERT through the pool's own connections
// (deps.sql), not through Prisma: Prisma carries Bytes as base64 inside its JSON query, so storing a 1 MB PDF cost
// ≈ 28 ms against ≈ 9 ms and a full garbage collection every ~2.5 files (40 inserts, `node --trace-gc`: 16
// Mark-Compacts against none). Under issue 24's load (1.5 uploads a second) those were the instances' event-loop delay
// peaks. A new bill goes in the same statement as its files (all or none); the rows are the ones Prisma would write,
// and every other write about bills stays on Prisma.

type RunSql = Database["executeSql"];

export interface NewBillFile {
  path: string;
  fileName: string;
  content: Buffer;
}

export interface NewBill {
  accountCode: string;
  createAccountIdDate: Date;
  amount: number;
  isPaid: boolean;
  userId: number;
  clinicCode: string;
}

/** PostgreSQL's unique-violation code: the bill's (clinic, account code) is taken. */
export const UNIQUE_VIOLATION = "23505";

// Prisma's DateTime columns are `timestamp(3)` holding UTC: an instant is sent as ISO text and read as UTC, whatever
// the session's time zone.
const utc = (n: number) => `$${n}::timestamptz AT TIME ZONE 'UTC'`;

/** `( $k, $k+1, $k+2::int, $k+3::bytea ), …`: one row of parameters per file (placeholders only, never values). */
function fileValues(files: NewBillFile[], first: number): { text: string; values: unknown[] } {
  const rows = files.map((_, index) => {
    const k = first + index * 4;
    return `($${k}::text, $${k + 1}::text, $${k + 2}::int, $${k + 3}::bytea)`;
  });
  return {
    text: rows.join(", "),
    values: files.flatMap((file) => [file.path, file.fileName, file.content.length, file.content]),
  };
}

/** Adds the files to an existing bill, all or none (one statement). */
export async function insertBillFiles(sql: RunSql, billId: number, files: NewBillFile[], now = new Date()): Promise<void> {
  const rows = fileValues(files, 3);
  await sql(
    `INSERT INTO "BillFile" ("billId", "path", "fileName", "contentType", "size", "content", "createdAt")
     SELECT $1::int, f.path, f."fileName", 'application/pdf', f.size, f.content, ${utc(2)}
       FROM (VALUES ${rows.text}) AS f(path, "fileName", size, content)`,
    [billId, now.toISOString(), ...rows.values],
  );
}

/**
 * The bill and its files (none or more) in one statement: a failure anywhere (a taken account code) leaves nothing
 * behind. The files' count on the bill is kept by its trigger, as for any other insert.
 */
export async function insertBillWithFiles(sql: RunSql, bill: NewBill, files: NewBillFile[], now = new Date()): Promise<number> {
  const rows = fileValues(files, 9);
  const insertFiles = files.length
    ? `, files AS (
       INSERT INTO "BillFile" ("billId", "path", "fileName", "contentType", "size", "content", "createdAt")
       SELECT bill.id, f.path, f."fileName", 'application/pdf', f.size, f.content, ${utc(7)}
         FROM bill, (VALUES ${rows.text}) AS f(path, "fileName", size, content)
     )`
    : "";
  const { rows: created } = await sql(
    `WITH bill AS (
       INSERT INTO "Bill" ("accountCode", "createAccountIdDate", "amount", "isPaid", "userId", "clinicCode", "createdAt", "updatedAt")
       VALUES ($1::text, ${utc(2)}, $3::int, $4::boolean, $5::int, $6::text, ${utc(7)}, ${utc(8)})
       RETURNING id
     )${insertFiles}
     SELECT id FROM bill`,
    [
      bill.accountCode,
      bill.createAccountIdDate.toISOString(),
      bill.amount,
      bill.isPaid,
      bill.userId,
      bill.clinicCode,
      now.toISOString(),
      now.toISOString(),
      ...rows.values,
    ],
  );
  return Number((created[0] as { id: number }).id);
}
