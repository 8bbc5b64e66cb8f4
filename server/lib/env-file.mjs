// One way to configure: every entry point (the portal, the mock providers, the operator commands, npm start, npm run
// stack, the benchmarks, Lighthouse) calls loadEnvFile() first, so a `.env` copied from .env.example is read, by Node's
// own parser, from the directory the command runs in. A variable already in the environment wins over the file, so
// `PORT=4400 npm start` still overrides `.env`. Tests never call it: they configure each app themselves, and a
// developer's `.env` (with their DATABASE_URL) must not reach a test that wipes its database.
import { existsSync } from "node:fs";

/** Loads `file` into process.env when it exists, without overriding variables already set; returns whether it did. */
export function loadEnvFile(file = ".env") {
  if (!existsSync(file)) return false;
  process.loadEnvFile(file);
  return true;
}
