import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Role } from "../../server/contract/roles.ts";
import { normalizePhone } from "../../server/contract/validation.ts";
import { freshDatabase, type FreshDatabase } from "../helpers/fresh-database.ts";
import { insertUser, rutOf } from "../helpers/fixtures.ts";

// Issue 33: the data migration that stores the phones saved before normalizePhone in E.164, where they are
// unambiguously Chilean, and leaves every other phone as it was.

const migrationSql = readFileSync(new URL("../../prisma/migrations/20261127010000_phones_e164/migration.sql", import.meta.url), "utf8");

/** Stored before → expected after. */
const cases: Array<[string | null, string | null]> = [
  ["+56 9 8765 4321", "+56987654321"],
  ["+56987654321", "+56987654321"],
  ["56987654321", "+56987654321"],
  ["9 8765 4321", "+56987654321"],
  ["987654321", "+56987654321"],
  ["9-8765-4321", "+56987654321"],
  ["(9) 8765.4321", "+56987654321"],
  ["2 2345 6789", "+56223456789"],
  ["+56 2 2345 6789", "+56223456789"],
  ["32 234 5678", "+56322345678"],
  ["(41) 234-5678", "+56412345678"],
  // Ambiguous or not Chilean: untouched.
  ["87654321", "87654321"],
  ["8765-4321", "8765-4321"],
  ["123456789", "123456789"],
  ["812345678", "812345678"],
  ["600 123 4567", "600 123 4567"],
  ["+54 11 4321 5678", "+54 11 4321 5678"],
  ["+1-202-555-0143", "+1-202-555-0143"],
  ["98765432x", "98765432x"],
  ["", ""],
  [null, null],
];

let fresh: FreshDatabase;
const ids: number[] = [];

beforeAll(async () => {
  fresh = await freshDatabase();
  for (const [index, [phone]] of cases.entries()) {
    const id = await insertUser(fresh.db.prisma, {
      rut: rutOf(31_000_000 + index),
      email: `telefono${index}@correo.cl`,
      roleType: Role.patient,
    });
    await fresh.db.prisma.user.update({ where: { id }, data: { phoneNumber: phone } });
    ids.push(id);
  }
}, 60_000);
afterAll(async () => fresh?.drop());

async function storedPhones(): Promise<Array<string | null>> {
  const rows = await fresh.db.prisma.user.findMany({ where: { id: { in: ids } }, select: { id: true, phoneNumber: true } });
  return ids.map((id) => rows.find((row) => row.id === id)!.phoneNumber);
}

describe("the phones-to-E.164 migration", () => {
  it("stores Chilean mobiles and landlines as +56 and nine digits, and leaves ambiguous and foreign numbers as they were", async () => {
    expect(await storedPhones()).toEqual(cases.map(([before]) => before));
    await fresh.db.prisma.$executeRawUnsafe(migrationSql);
    expect(await storedPhones()).toEqual(cases.map(([, after]) => after));
  });

  it("changes nothing when run a second time", async () => {
    const changed = await fresh.db.prisma.$executeRawUnsafe(migrationSql);
    expect(changed).toBe(0);
  });

  it("agrees with normalizePhone, the rule of new saves, on every number it converts", () => {
    for (const [before, after] of cases) {
      if (before !== null && after !== before) expect(normalizePhone(before)).toBe(after);
    }
  });
});
