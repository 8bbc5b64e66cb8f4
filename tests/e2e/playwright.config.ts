import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, devices } from "@playwright/test";
import { e2eBaseUrl } from "./support/ports.ts";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The system's Chromium where installed, else Playwright's own browser. First its headless shell (Debian's
 * chromium-headless-shell, what Playwright itself runs headless by default): the same Blink without the full browser's
 * GPU process and user interface, it took the browser tests from 8.2 to 6.1 minutes on 2 cores (issue 26); then the
 * full browser (Debian: /usr/bin/chromium). CHROMIUM_PATH picks another.
 */
function chromiumPath(): string | undefined {
  const candidates = [
    process.env.CHROMIUM_PATH,
    "/usr/bin/chromium-headless-shell",
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
  ];
  return candidates.find((candidate): candidate is string => Boolean(candidate && existsSync(candidate)));
}

export default defineConfig({
  testDir: ".",
  testMatch: "**/*.spec.ts",
  timeout: 30_000,
  expect: { timeout: 7_000 },
  fullyParallel: false,
  // Three: a browser test mostly waits (for the page, the portal, the database), and two workers left most of 2 cores
  // idle (issue 46 §5, docs/rendimiento.md); each worker has staff accounts of its own (support/staff-accounts.ts).
  workers: 3,
  // A failed test runs once more, traced (below); npm test counts a test that passed only on that retry as failed
  // (scripts/test.mjs: flaky is failed), so the retry hides nothing.
  retries: 1,
  reporter: [["list"], ["json", { outputFile: path.join(root, "var/test-results/playwright.json") }]],
  outputDir: path.join(root, "var/test-results/playwright"),
  use: {
    baseURL: e2eBaseUrl,
    locale: "es-CL",
    timezoneId: "America/Santiago",
    // A failed test keeps a screenshot of the end, and its retry a trace (each step's DOM, network and console).
    // Recording a trace of every test to keep only the failed ones' cost a fifth of the browser tests' CPU (5 specs,
    // 27 tests: 80 CPU-s and 62 s traced, 65 CPU-s and 55 s not; issue 46 §5). The trace's screencast (a frame at every
    // paint) is not recorded: in a software-rendered headless browser it was a quarter of their CPU.
    trace: { mode: "on-first-retry", screenshots: false },
    screenshot: "only-on-failure",
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        viewport: { width: 1280, height: 800 },
        launchOptions: {
          executablePath: chromiumPath(),
          args: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
          ],
        },
      },
    },
  ],
  webServer: {
    command: "npx tsx tests/e2e/support/e2e-server.ts",
    cwd: root,
    url: `${e2eBaseUrl}/api/rcr/v1/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "pipe",
    stderr: "pipe",
  },
});
