import { test, type Page } from "@playwright/test";
import { generate } from "otplib";
import { demoTotpSecrets } from "../../../server/db/seed.ts";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { normalizeRut } from "../../../server/contract/rut.ts";
import { e2ePorts } from "./ports.ts";
import { workerStaffSecrets } from "./staff-accounts.ts";

// The second factor in the browser tests (issue 27): the code the staff's authenticator app would show. The portal
// takes each code once per account and in order (replays are refused), and accepts the previous, the current and the
// next 30-s step. Each worker signs in as staff of its own (support/staff-accounts.ts), so no two workers share a
// secret (past the seeded workers, the demo staff are shared: a code another worker's later one made old is refused, and
// the next is tried); each code is of a step not used yet for that secret (the previous one while enough of the current step is
// left, the current one, the next one); past that it waits for the next step, as a person would. Steps are claimed
// through files, so a worker restarted after a failure (same accounts) never reuses one.

const knownSecrets: Record<string, string> = {
  [normalizeRut("11.111.111-1")]: demoTotpSecrets.admin,
  [normalizeRut("22.222.222-2")]: demoTotpSecrets.executive,
  ...workerStaffSecrets(),
};

/** The TOTP secret of a staff account the browser tests know (the demo staff, every worker's own staff). */
export const staffSecretOf = (rut: string): string | undefined => knownSecrets[normalizeRut(rut)];

const STEP_SECONDS = 30;
/** The previous step's code is used only while this much of the current step is left (a request takes time). */
const PREVIOUS_STEP_MARGIN_MS = 8_000;
/** Steps claimed by the workers of this run (one file per secret and step, created exclusively): never the same twice. */
const claims = join(tmpdir(), `portal-e2e-totp-${e2ePorts.portal}`);
mkdirSync(claims, { recursive: true });
/** Every wait for a step, one line each (milliseconds): the run's total is the time the clock cost it. */
const totpWaitsFile = join(claims, "waits.log");

function claim(secret: string, step: number): boolean {
  try {
    writeFileSync(join(claims, `${secret}-${step}`), "", { flag: "wx" });
    return true;
  } catch {
    return false;
  }
}

/** A code of a step no worker of this run has used for the secret; waits for the step to come within tolerance. */
export async function nextTotpCode(secret: string): Promise<string> {
  const now = Date.now();
  const nowStep = Math.floor(now / 1000 / STEP_SECONDS);
  const leftOfStepMs = (nowStep + 1) * STEP_SECONDS * 1000 - now;
  let step = leftOfStepMs > PREVIOUS_STEP_MARGIN_MS ? nowStep - 1 : nowStep;
  while (!claim(secret, step)) step++;
  if (step > nowStep + 1) {
    const waitMs = ((step - 1) * STEP_SECONDS + 1) * 1000 - Date.now();
    appendFileSync(totpWaitsFile, `${waitMs}\n`);
    // The wait is the clock's, not the test's: give the running test that much more time.
    try {
      test.info().setTimeout(test.info().timeout + waitMs);
    } catch {
      // Outside a test (a hook's set-up): its own timeout applies.
    }
    await new Promise((resolve) => setTimeout(resolve, waitMs));
  }
  return generate({ secret, epoch: step * STEP_SECONDS });
}

/** On the 'Verificación en dos pasos' step of the login: enters codes until one is taken (at most a few steps). */
export async function completeSecondFactorStep(page: Page, secret: string, loginPath: RegExp): Promise<void> {
  const field = page.getByLabel("Código de verificación");
  for (let attempt = 0; attempt < 4; attempt++) {
    await field.fill(await nextTotpCode(secret));
    await page.getByRole("button", { name: "Verificar" }).click();
    // Refused: a previous step's code that reached the portal after its step ended, or the throttle.
    const refused = page.getByRole("alert").filter({ hasText: /no es válido o ya fue utilizado|Demasiados intentos/ });
    const outcome = await Promise.race([
      page.waitForURL((url) => !loginPath.test(url.pathname), { timeout: 10_000 }).then(() => "left" as const),
      refused.waitFor({ timeout: 10_000 }).then(() => "refused" as const),
    ]).catch(() => "refused" as const);
    if (outcome === "left") return;
    await refused
      .getByRole("button", { name: "Cerrar mensaje" })
      .click()
      .catch(() => {});
  }
  throw new Error("no second-factor code was accepted");
}
