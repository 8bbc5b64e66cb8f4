import { test, type Page } from "@playwright/test";
import { generate } from "otplib";
import { demoTotpSecrets } from "../../../server/db/seed.ts";
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { normalizeRut } from "../../../server/contract/rut.ts";
import { e2ePorts } from "./ports.ts";

// The second factor in the browser tests (issue 27): the code the demo staff's authenticator app would show, from the
// development secrets of the README. The portal takes each code once per account (replays are refused) and specs log
// the same staff in many times, so each code is of a step not used yet by this process (now, or the next one, which
// the ±1 step tolerance accepts); past that it waits for the next step, as a person would. The workers of a run claim
// steps through files, so no two use the same one; a code can still be overtaken by a later one another worker used
// first (the portal takes each account's codes in order): then the next step is tried.

const demoSecrets: Record<string, string> = {
  [normalizeRut("11.111.111-1")]: demoTotpSecrets.admin,
  [normalizeRut("22.222.222-2")]: demoTotpSecrets.executive,
};

export const demoSecretOf = (rut: string): string | undefined => demoSecrets[normalizeRut(rut)];

const STEP_SECONDS = 30;
/** Steps claimed by the workers of this run (one file per secret and step, created exclusively): never the same twice. */
const claims = join(tmpdir(), `portal-e2e-totp-${e2ePorts.portal}`);
mkdirSync(claims, { recursive: true });

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
  const nowStep = Math.floor(Date.now() / 1000 / STEP_SECONDS);
  let step = nowStep;
  while (!claim(secret, step)) step++;
  if (step > nowStep + 1) {
    const waitMs = ((step - 1) * STEP_SECONDS + 1) * 1000 - Date.now();
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
    // Refused: a code another worker's later step made old (codes must be used in order), or the throttle.
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
