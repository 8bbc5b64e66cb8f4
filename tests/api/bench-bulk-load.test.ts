import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadUsers, USERS_PER_STATEMENT } from "../../bench/users-search.bench.ts";
import { freshDatabase, type FreshDatabase } from "../helpers/fresh-database.ts";

// The bench's bulk load (100,000 users for the throughput and search benches) printed pg's «Calling client.query() when
// the client is already executing a query is deprecated» once per run: a createMany too large for one statement
// (PostgreSQL takes at most 32,767 bind parameters) is split by Prisma's query interpreter into chunks it sends at once
// on the one connection of its transaction, which pg@9 will refuse. The portal's own createMany calls are a few rows.

let fresh: FreshDatabase;
const warnings: string[] = [];
const onWarning = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);

beforeAll(async () => {
  fresh = await freshDatabase();
  process.on("warning", onWarning);
});
afterAll(async () => {
  process.off("warning", onWarning);
  await fresh?.drop();
});

describe("the bench's bulk load of users", () => {
  it("sends each batch as one statement, never two queries at once on one connection", async () => {
    const before = await fresh.db.prisma.user.count();

    await loadUsers(fresh.db, USERS_PER_STATEMENT + 10);

    expect(await fresh.db.prisma.user.count()).toBe(before + USERS_PER_STATEMENT + 10);
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((warning) => warning.includes("client.query()"))).toEqual([]);
  });
});
