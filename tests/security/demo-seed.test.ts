import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../server/config.ts";
import { seedAtStartup, wantsDemoData } from "../../server/db/seed.ts";
import { freshDatabase, type FreshDatabase } from "../helpers/fresh-database.ts";

const realSecret = "n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg";

// Issue 9, finding 3: production with an empty database created the demo admin 11.111.111-1 / Admin2026.
describe("demo accounts only where asked for", () => {
  it("development seeds them unless SEED_DEMO=false; production and tests only with SEED_DEMO=true", () => {
    expect(wantsDemoData(loadConfig({}))).toBe(true);
    expect(wantsDemoData(loadConfig({ SEED_DEMO: "false" }))).toBe(false);
    expect(wantsDemoData(loadConfig({ NODE_ENV: "production", JWT_SECRET: realSecret }))).toBe(false);
    expect(wantsDemoData(loadConfig({ NODE_ENV: "test" }))).toBe(false);
    expect(wantsDemoData(loadConfig({ NODE_ENV: "test", SEED_DEMO: "true" }))).toBe(true);
  });

  describe("production start-up on an empty database", () => {
    let fresh: FreshDatabase;
    beforeAll(async () => {
      fresh = await freshDatabase();
    });
    afterAll(async () => fresh.drop());

    it("creates no account at all (no known password), only the clinic catalogue", async () => {
      await seedAtStartup(fresh.db.prisma, loadConfig({ NODE_ENV: "production", JWT_SECRET: realSecret }));
      expect(await fresh.db.prisma.user.count()).toBe(0);
      expect(await fresh.db.prisma.clinic.count()).toBeGreaterThan(0);
    });
  });
});
