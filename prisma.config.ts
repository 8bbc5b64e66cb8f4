import { defineConfig } from "prisma/config";

// Only `prisma generate` goes through the CLI here; migrations run through server/db/migrate.ts.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
});
