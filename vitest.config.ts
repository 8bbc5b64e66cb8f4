import { defineConfig } from "vitest/config";
import { webAliases } from "./web/vite.config.ts";

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias: webAliases },
        test: {
          name: "unit",
          include: ["server/**/*.test.ts", "web/**/*.test.{ts,tsx}", "mocks/**/*.test.ts"],
          environment: "node",
        },
      },
      {
        test: {
          name: "api",
          include: ["tests/api/**/*.test.ts"],
          environment: "node",
          // Each file builds its own app over its own fresh database (a copy of the run's migrated template, made by
          // the globalSetup); files run in parallel workers.
          globalSetup: ["tests/helpers/database-templates.setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          // npm run test:security: the permission matrix, bad-input properties, token attacks and issue 9's findings.
          name: "security",
          include: ["tests/security/**/*.test.ts"],
          environment: "node",
          globalSetup: ["tests/helpers/database-templates.setup.ts"],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
