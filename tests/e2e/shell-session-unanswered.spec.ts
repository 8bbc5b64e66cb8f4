import { expect, test } from "@playwright/test";
import { accounts, logIn, storedKeys } from "./shell-helpers.ts";

// A page load asks the server whether the stored session is still valid (SPEC §4). Only the server's answer may end
// the session: a check that gets no answer — the connection dropped, or the request cut short because the person
// opened another page at that moment — keeps it. Before, "no answer" counted as "invalid": the storage was cleared
// and the person sent to the login (seen in CI: a staff page opened twice in a row lost the session).
const validateToken = /\/trpc\/auth\.validateToken/;

for (const [who, account, portal, home, heading] of [
  ["a patient", accounts.patient, "patient", "/dashboard/account-settings", "Mi cuenta"],
  ["staff", accounts.admin, "staff", "/admin/admin-users", "Usuarios y Pacientes"],
] as const) {
  test(`a session check with no answer keeps ${who} signed in; the next page load works`, async ({ page }) => {
    await logIn(page, account, portal);
    await page.route(validateToken, (route) => route.abort("failed"), { times: 1 });
    await page.goto(home);
    await expect(page).toHaveURL(new RegExp(`${home}$`));
    await expect.poll(() => storedKeys(page).then((keys) => keys.local)).toBeGreaterThan(0);

    await page.reload();
    await expect(page).toHaveURL(new RegExp(`${home}$`));
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
  });
}

test("a session check the server answers 'not valid' still ends the session", async ({ page }) => {
  await logIn(page, accounts.patient, "patient");
  await page.route(validateToken, (route) =>
    route.fulfill({ contentType: "application/json", body: JSON.stringify({ result: { data: false } }) }),
  );
  await page.goto("/dashboard/account-settings");
  await expect(page).toHaveURL(/\/login$/);
  await expect.poll(() => storedKeys(page)).toEqual({ local: 0, session: 0 });
});
