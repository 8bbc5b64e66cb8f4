import { expect, test, type Page } from "@playwright/test";
import { logIn } from "./shell-helpers.ts";
import { busyLogPatient } from "./support/audit-fixtures.ts";

// Issue 45 §8: 'Accesos a mis datos' was mostly the patient's own list reads, ten a minute, and paging jumped to the
// top of the page, six screens above the list. Now it opens on 'Solo otras personas' when anyone else acted, a
// person's repeated reads are one line, and paging keeps the list in view.

const section = (page: Page) => page.locator("section.card", { has: page.getByRole("heading", { name: "Accesos a mis datos", level: 2 }) });

for (const { width, height } of [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
]) {
  test.describe(`at ${width} px`, () => {
    test.use({ viewport: { width, height } });

    test("the accesses open on other people, page without losing the place, and group the patient's own repeated reads", async ({
      page,
    }) => {
      await logIn(page, busyLogPatient);
      await page.goto("/dashboard/account-settings");
      const accesses = section(page);
      const list = accesses.getByRole("list", { name: "Accesos a los datos" });
      const onlyOthers = accesses.getByRole("checkbox", { name: "Solo otras personas" });
      await expect(onlyOthers).toBeChecked();
      await expect(list.getByRole("listitem")).toHaveCount(20);
      await expect(list).not.toContainText("Usted");
      await expect(list).toContainText("Sistemas de la clínica");
      const firstOfPageOne = await list.getByRole("listitem").first().textContent();

      const next = accesses.getByRole("button", { name: "Página 2", exact: true });
      await next.scrollIntoViewIfNeeded();
      await next.click();
      await expect(page).toHaveURL(/page=2/);
      await expect(list.getByRole("listitem").first()).not.toHaveText(firstOfPageOne!);
      expect(await page.evaluate(() => window.scrollY), "the page did not jump to its top").toBeGreaterThan(0);
      const top = (await list.boundingBox())!.y;
      expect(top, "the new page's list starts in view").toBeGreaterThanOrEqual(0);
      expect(top).toBeLessThan(height);

      await onlyOthers.click();
      await expect(page).toHaveURL(/otras=0/);
      await expect(onlyOthers).not.toBeChecked();
      await expect(list).toContainText("Usted");
      expect(await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)).toBe(false);
    });
  });
}
