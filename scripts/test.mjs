// npm test: every check — typecheck, lint, format and the web build side by side, then unit + API tests (vitest), then
// browser tests (Playwright). API and browser tests use in-memory PGlite, or throw-away databases on TEST_DATABASE_URL's
// server when set (CI).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";

const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const resultsDir = "var/test-results";
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

// The four static steps are each mostly one process on one core and read only the sources (dist/ is ignored by the
// linters), so they run at the same time; each one's output is printed as a block when it ends (issue 26).
const staticSteps = [
  ["typecheck", ["tsc", "--noEmit", "-p", "tsconfig.json"]],
  // npm run lint: eslint, then madge (no import circles, .madgerc) and knip (nothing unused, knip.jsonc).
  ["lint", ["run", "--silent", "lint"], npm],
  ["format", ["prettier", "--check", ".", "--log-level", "warn"]],
  ["web build", ["vite", "build", "--config", "web/vite.config.ts", "--logLevel", "warn"]],
];
const steps = [
  ["unit + API", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile=${resultsDir}/vitest.json`]],
  ["browser", ["playwright", "test", "-c", "tests/e2e/playwright.config.ts"]],
];

const seconds = (started) => ((Date.now() - started) / 1000).toFixed(1);

function runBuffered(name, args, command = npx) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: process.env, stdio: ["ignore", "pipe", "pipe"] });
    const output = [];
    child.stdout.on("data", (chunk) => output.push(chunk));
    child.stderr.on("data", (chunk) => output.push(chunk));
    child.on("error", (error) => output.push(Buffer.from(`${error.message}\n`)));
    child.on("close", (code) => {
      const ok = code === 0;
      console.log(`\n=== ${name}: ${command} ${args.join(" ")}`);
      process.stdout.write(Buffer.concat(output));
      console.log(`=== ${name}: ${ok ? "ok" : "FAILED"} (${seconds(started)} s)`);
      resolve(ok);
    });
  });
}

let failedStep = null;
const staticStarted = Date.now();
const staticResults = await Promise.all(staticSteps.map(([name, args, command]) => runBuffered(name, args, command)));
console.log(`\n=== typecheck, lint, format, web build together: ${seconds(staticStarted)} s`);
const failedStatic = staticSteps.filter((_, index) => !staticResults[index]).map(([name]) => name);
if (failedStatic.length > 0) failedStep = failedStatic.join(", ");

for (const [name, args, command = npx] of failedStep ? [] : steps) {
  console.log(`\n=== ${name}: ${command} ${args.join(" ")}`);
  const started = Date.now();
  const result = spawnSync(command, args, { stdio: "inherit", env: process.env });
  console.log(`=== ${name}: ${result.status === 0 ? "ok" : "FAILED"} (${seconds(started)} s)`);
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
