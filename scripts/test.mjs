// npm test: every check — typecheck, lint and format in the background, beside the web build, then unit + API tests
// (vitest), then browser tests (Playwright). API and browser tests make throw-away databases on a PostgreSQL server
// (TEST_DATABASE_URL's; else the machine's on 127.0.0.1:5432 when it answers, the server the stack, backup and Redis
// tests use in any case), or use in-memory PGlite when there is none (or TEST_DATABASE=pglite).
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { setPriority } from "node:os";
import pg from "pg";

const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const resultsDir = "var/test-results";

const MACHINE_POSTGRES = "postgresql://postgres@127.0.0.1:5432/postgres";

/** Whether a PostgreSQL server answers at `url` (2 s at most). */
async function answers(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

// On PostgreSQL the API tests are what production runs, and quicker: PGlite runs inside each test file's worker, on the
// same 2 cores as everything else (vitest 283 s on PGlite, 224 s on the machine's PostgreSQL; issue 46 §5).
if (!process.env.TEST_DATABASE_URL && process.env.TEST_DATABASE !== "pglite" && (await answers(MACHINE_POSTGRES))) {
  process.env.TEST_DATABASE_URL = MACHINE_POSTGRES;
}
console.log(
  process.env.TEST_DATABASE_URL
    ? `API and browser tests: throw-away databases on ${process.env.TEST_DATABASE_URL.replace(/\/[^/]*$/, "")}`
    : `API and browser tests: PGlite in memory (${process.env.TEST_DATABASE === "pglite" ? "TEST_DATABASE=pglite" : "no PostgreSQL answered on 127.0.0.1:5432"})`,
);
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

// The static checks read only the sources (dist/ is ignored by the linters), so they run side by side (issue 26) and
// beside the tests (issue 46 §5): the tests mostly wait — on their database, on a browser, on a process they started —
// and leave CPU a low-priority check can take. The static checks and the build are printed as a block when they end;
// vitest and Playwright print as they go. A failed test step stops the ones after it; a failed static check is
// reported at the end.
const staticSteps = [
  // npm run typecheck: TypeScript 7 (native), ≈ half the CPU of 5.9's checker (issue 46 §5, docs/rendimiento.md).
  ["typecheck", ["run", "--silent", "typecheck"], npm],
  // npm run lint: eslint, then madge (no import circles, .madgerc) and knip (nothing unused, knip.jsonc).
  ["lint", ["run", "--silent", "lint"], npm],
  ["format", ["prettier", "--check", ".", "--log-level", "warn"]],
];
const vitestStep = ["unit + API", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile=${resultsDir}/vitest.json`]];
const webBuild = ["web build", ["vite", "build", "--config", "web/vite.config.ts", "--logLevel", "warn"]];
const browserStep = ["browser", ["playwright", "test", "-c", "tests/e2e/playwright.config.ts"]];

const seconds = (started) => ((Date.now() - started) / 1000).toFixed(1);

/** `background`: at a low priority (nice 10), so the tests get the CPU first and this one what they leave. */
function runBuffered(name, args, command = npx, { background = false } = {}) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: process.env, stdio: ["ignore", "pipe", "pipe"] });
    // Set before npx has started the tool: the processes it starts inherit the priority.
    if (background && child.pid) setPriority(child.pid, 10);
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

function runStreamed(name, args, command = npx) {
  const started = Date.now();
  console.log(`\n=== ${name}: ${command} ${args.join(" ")}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { env: process.env, stdio: ["ignore", "inherit", "inherit"] });
    child.on("error", (error) => console.log(error.message));
    child.on("close", (code) => {
      console.log(`=== ${name}: ${code === 0 ? "ok" : "FAILED"} (${seconds(started)} s)`);
      resolve(code === 0);
    });
  });
}

const started = Date.now();
const failedSteps = [];
const lane = async (steps) => {
  for (const [name, ok] of await steps) if (!ok) failedSteps.push(name);
};
await Promise.all([
  // The static checks wait for nobody and nobody waits for them (the tests have timeouts): in the background.
  lane(Promise.all(staticSteps.map(async ([name, args, command]) => [name, await runBuffered(name, args, command, { background: true })]))),
  // The web build first: the browser tests serve it (dist/web), and vitest's web-serving test reads it (it would build
  // it itself, into the same folder, were it missing). Then vitest, then the browser tests, one after the other: side
  // by side they made each other's timed tests fail on a loaded machine (docs/rendimiento.md).
  lane(
    (async () => {
      const results = [];
      for (const [name, args] of [webBuild, vitestStep, browserStep]) {
        const ok = name === webBuild[0] ? await runBuffered(name, args) : await runStreamed(name, args);
        results.push([name, ok]);
        if (!ok) break;
      }
      return results;
    })(),
  ),
]);
console.log(`\n=== every step: ${seconds(started)} s`);
const failedStep = failedSteps.length > 0 ? failedSteps.join(", ") : null;

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
