// npm test: every check in order — typecheck, lint, format, unit + API tests (vitest), web build, browser tests (Playwright).
// API and browser tests use in-memory PGlite, or throw-away databases on TEST_DATABASE_URL's server when set (CI).
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";

const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const resultsDir = "var/test-results";
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

const steps = [
  ["typecheck", ["tsc", "--noEmit", "-p", "tsconfig.json"]],
  // npm run lint: eslint, then madge (no import circles, .madgerc) and knip (nothing unused, knip.jsonc).
  ["lint", ["run", "--silent", "lint"], npm],
  ["format", ["prettier", "--check", ".", "--log-level", "warn"]],
  ["unit + API", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile=${resultsDir}/vitest.json`]],
  ["web build", ["vite", "build", "--config", "web/vite.config.ts", "--logLevel", "warn"]],
  ["browser", ["playwright", "test", "-c", "tests/e2e/playwright.config.ts"]],
];

let failedStep = null;
for (const [name, args, command = npx] of steps) {
  console.log(`\n=== ${name}: ${command} ${args.join(" ")}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: process.env });
  console.log(`=== ${name}: ${result.status === 0 ? "ok" : "FAILED"} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  if (result.status !== 0) {
    failedStep = name;
    break;
  }
}

function readJson(file) {
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null;
}
let passed = 0;
let failed = 0;
let skipped = 0;
const vitest = readJson(`${resultsDir}/vitest.json`);
if (vitest) {
  passed += vitest.numPassedTests;
  failed += vitest.numFailedTests;
  skipped += vitest.numPendingTests + (vitest.numTodoTests ?? 0);
}
const playwright = readJson(`${resultsDir}/playwright.json`);
if (playwright?.stats) {
  passed += playwright.stats.expected;
  failed += playwright.stats.unexpected + playwright.stats.flaky;
  skipped += playwright.stats.skipped;
}
if (failedStep) console.log(`\nFailed step: ${failedStep}`);
console.log(`\ntests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failedStep || failed > 0 ? 1 : 0);
