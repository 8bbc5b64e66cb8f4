import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { webAliases } from "./web/vite.config.ts";

export default defineConfig({
  test: {
    // vitest's default is one worker less than the cores: on CI's 2 cores, one file at a time. Much of an API file's
    // time is spent waiting (on its database, on the portal or commands it starts), so two files share the cores.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        resolve: { alias: webAliases },
        test: {
          name: "unit",
          include: ["server/**/*.test.ts", "web/**/*.test.{ts,tsx}", "mocks/**/*.test.ts"],
          environment: "node",
          // As in api below: the files of a worker share its loaded modules.
          isolate: false,
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
          // The files of a worker share its loaded modules (the server is transformed and imported once per worker,
          // not once per file: that import was most of each file's time). Nothing a file builds lives in a module:
          // each has its own app, database, mocks and config (issue 26).
          isolate: false,
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
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
