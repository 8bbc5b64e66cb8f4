// Generates the Prisma client at install time. Prisma's CLI first tries to download its native schema engine,
// which generation does not need; where that download cannot work (offline machines) we point it at a stand-in.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY) env.PRISMA_SCHEMA_ENGINE_BINARY = existsSync("/bin/true") ? "/bin/true" : process.execPath;
const result = spawnSync("npx", ["prisma", "generate"], { stdio: "inherit", env, shell: process.platform === "win32" });
process.exit(result.status ?? 1);
