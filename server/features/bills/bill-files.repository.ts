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

// Prisma's DateTime columns are `timestamp(3)` holding UTC: an instant is sent as ISO text and read as UTC, whatever
// the session's time zone.
const utc = (n: number) => `$${n}::timestamptz AT TIME ZONE 'UTC'`;

/**
 * The INSERT of `files` into the bill of the statement's `bill` (a CTE with its id), their parameters numbered from
 * `first` (placeholders only, never values); their time is the parameter `createdAt`.
 */
function insertFiles(files: NewBillFile[], first: number, createdAt: number) {
  const rows = files.map((_, index) => {
    const k = first + index * 4;
    return `($${k}::text, $${k + 1}::text, $${k + 2}::int, $${k + 3}::bytea)`;
  });
  return {
    text: `INSERT INTO "BillFile" ("billId", "path", "fileName", "contentType", "size", "content", "createdAt")
     SELECT bill.id, f.path, f."fileName", 'application/pdf', f.size, f.content, ${utc(createdAt)}
       FROM bill, (VALUES ${rows.join(", ")}) AS f(path, "fileName", size, content)`,
    values: files.flatMap((file) => [file.path, file.fileName, file.content.length, file.content]),
  };
}

/** Adds the files to an existing bill, all or none (one statement). */
export async function insertBillFiles(sql: RunSql, billId: number, files: NewBillFile[], now = new Date()): Promise<void> {
  const insert = insertFiles(files, 3, 2);
  await sql(`WITH bill AS (SELECT $1::int AS id) ${insert.text}`, [billId, now.toISOString(), ...insert.values]);
}

/**
 * The bill and its files (none or more) in one statement: a failure anywhere (a taken account code) leaves nothing
 * behind. The files' count on the bill is kept by its trigger, as for any other insert.
 */
export async function insertBillWithFiles(sql: RunSql, bill: NewBill, files: NewBillFile[], now = new Date()): Promise<number> {
  const insert = files.length ? insertFiles(files, 9, 7) : null;
  const { rows: created } = await sql(
    `WITH bill AS (
       INSERT INTO "Bill" ("accountCode", "createAccountIdDate", "amount", "isPaid", "userId", "clinicCode", "createdAt", "updatedAt")
       VALUES ($1::text, ${utc(2)}, $3::int, $4::boolean, $5::int, $6::text, ${utc(7)}, ${utc(8)})
       RETURNING id
     )${insert ? `, files AS (${insert.text})` : ""}
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
      ...(insert?.values ?? []),
    ],
  );
  return Number((created[0] as { id: number }).id);
}
