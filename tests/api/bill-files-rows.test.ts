import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { UNIQUE_VIOLATION } from "../../server/db/db-errors.ts";
import { insertBillFiles, insertBillWithFiles } from "../../server/features/bills/bill-files.repository.ts";
import { freshDatabase, type FreshDatabase } from "../helpers/fresh-database.ts";

// Bills with PDFs are written in parameterised SQL through the pool (the bytes as binary parameters), not through the
// model API: what Prisma reads back must be the row it would have written, bytes and times included.

let fresh: FreshDatabase;
let patientId: number;
beforeAll(async () => {
  fresh = await freshDatabase(process.env.TEST_DATABASE_URL, "pp_test", { seeded: true });
  patientId = (await fresh.db.prisma.user.findFirstOrThrow({ where: { roleType: 2 }, select: { id: true } })).id;
});
afterAll(async () => {
  await fresh.drop();
});

const pdf = (size: number) => Buffer.concat([Buffer.from("%PDF-1.4\n"), randomBytes(size)]);

it("a bill and its PDFs written in one SQL statement read back through Prisma byte for byte, counted, at the time of the write", async () => {
  const files = [
    { path: `ruta-${randomBytes(6).toString("hex")}`, fileName: "detalle ñandú.pdf", content: pdf(1024 * 1024) },
    { path: `ruta-${randomBytes(6).toString("hex")}`, fileName: "epicrisis.pdf", content: pdf(10) },
  ];
  // A portal in Chile: the times are still UTC, as Prisma writes them.
  const zone = process.env.TZ;
  process.env.TZ = "America/Santiago";
  const before = Date.now();
  const newBill = {
    accountCode: "770001",
    createAccountIdDate: new Date("2026-02-14T03:00:00.000Z"),
    amount: 125_000,
    isPaid: false,
    userId: patientId,
    clinicCode: "hcs-rcr",
  };
  const billId = await insertBillWithFiles(fresh.db.executeSql, newBill, files);
  process.env.TZ = zone;
  const bill = await fresh.db.prisma.bill.findUniqueOrThrow({ where: { id: billId }, include: { files: { orderBy: { id: "asc" } } } });
  expect(bill).toMatchObject({ ...newBill, filesCount: 2 });
  expect(bill.files.map((file) => [file.path, file.fileName, file.contentType, file.size])).toEqual(
    files.map((file) => [file.path, file.fileName, "application/pdf", file.content.length]),
  );
  bill.files.forEach((file, index) => expect(Buffer.from(file.content).equals(files[index]!.content)).toBe(true));
  for (const time of [bill.createdAt, bill.updatedAt, ...bill.files.map((file) => file.createdAt)]) {
    expect(time.getTime()).toBeGreaterThanOrEqual(before - 1);
    expect(time.getTime()).toBeLessThanOrEqual(Date.now() + 1);
  }
});

it("a taken account code leaves neither the bill nor any of its files, and says so with PostgreSQL's unique-violation code", async () => {
  const bill = {
    accountCode: "770002",
    createAccountIdDate: new Date(),
    amount: 1,
    isPaid: false,
    userId: patientId,
    clinicCode: "hcs-rcr",
  };
  await insertBillWithFiles(fresh.db.executeSql, bill, []);
  const path = `ruta-${randomBytes(6).toString("hex")}`;
  await expect(insertBillWithFiles(fresh.db.executeSql, bill, [{ path, fileName: "a.pdf", content: pdf(100) }])).rejects.toMatchObject({
    code: UNIQUE_VIOLATION,
  });
  expect(await fresh.db.prisma.billFile.count({ where: { path } })).toBe(0);
  expect(await fresh.db.prisma.bill.count({ where: { accountCode: "770002" } })).toBe(1);
});

it("files added to an existing bill are all stored or none (a path already taken)", async () => {
  const { id: billId } = await fresh.db.prisma.bill.findFirstOrThrow({ where: { accountCode: "770002" }, select: { id: true } });
  const taken = `ruta-${randomBytes(6).toString("hex")}`;
  await insertBillFiles(fresh.db.executeSql, billId, [{ path: taken, fileName: "a.pdf", content: pdf(100) }]);
  const fresh1 = `ruta-${randomBytes(6).toString("hex")}`;
  await expect(
    insertBillFiles(fresh.db.executeSql, billId, [
      { path: fresh1, fileName: "b.pdf", content: pdf(100) },
      { path: taken, fileName: "c.pdf", content: pdf(100) },
    ]),
  ).rejects.toMatchObject({ code: UNIQUE_VIOLATION });
  expect(await fresh.db.prisma.billFile.count({ where: { path: fresh1 } })).toBe(0);
  expect((await fresh.db.prisma.bill.findUniqueOrThrow({ where: { id: billId } })).filesCount).toBe(1);
});
