import { test, type Page } from "@playwright/test";
import { generate } from "otplib";
import { demoTotpSecrets } from "../../../server/db/seed.ts";
import { normalizeRut } from "../../../server/contract/rut.ts";

// The second factor in the browser tests (issue 27): the code the demo staff's authenticator app would show, from the
// development secrets of the README. The portal takes each code once per account (replays are refused) and specs log
// the same staff in many times, so each code is of a step not used yet by this process (now, or the next one, which
// the ±1 step tolerance accepts); past that it waits for the next step, as a person would. Another worker may have
// used the step already: then the next one is tried.

const demoSecrets: Record<string, string> = {
  [normalizeRut("11.111.111-1")]: demoTotpSecrets.admin,
  [normalizeRut("22.222.222-2")]: demoTotpSecrets.executive,
};

export const demoSecretOf = (rut: string): string | undefined => demoSecrets[normalizeRut(rut)];

const lastStepUsed = new Map<string, number>();
const STEP_SECONDS = 30;

/** A code of a step this process has not used for the secret yet; waits for the step to come within tolerance. */
export async function nextTotpCode(secret: string): Promise<string> {
  const nowStep = Math.floor(Date.now() / 1000 / STEP_SECONDS);
  const step = Math.max(nowStep, (lastStepUsed.get(secret) ?? 0) + 1);
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
  lastStepUsed.set(secret, step);
  return generate({ secret, epoch: step * STEP_SECONDS });
}

/** On the 'Verificación en dos pasos' step of the login: enters codes until one is taken (at most a few steps). */
export async function completeSecondFactorStep(page: Page, secret: string, loginPath: RegExp): Promise<void> {
  const field = page.getByLabel("Código de verificación");
  for (let attempt = 0; attempt < 4; attempt++) {
    await field.fill(await nextTotpCode(secret));
    await page.getByRole("button", { name: "Verificar" }).click();
    const refused = page.getByRole("alert").filter({ hasText: "El código de verificación no es válido o ya fue utilizado" });
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
