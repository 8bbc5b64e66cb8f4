// Generates the Prisma client at install time. Prisma's CLI first tries to download its native schema engine, which
// generation never uses (and which offline machines cannot fetch), so it is pointed at a stand-in executable unless
// PRISMA_SCHEMA_ENGINE_BINARY is already set. Migrations use the WebAssembly engine instead (server/db/migrate.ts).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = existsSync("/bin/true") ? "/bin/true" : process.execPath;
const result = spawnSync("npx", ["prisma", "generate"], { stdio: "inherit", env, shell: process.platform === "win32" });
process.exit(result.status ?? 1);
