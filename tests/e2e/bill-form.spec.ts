import { expect, test } from "@playwright/test";
import { accounts, logIn } from "./shell-helpers.ts";
import { e2ePorts } from "./support/ports.ts";

// Issue 33, point 4: the bill form shows whose RUT was typed (or that there is no such patient) and takes an amount
// typed with the thousands dot.

const southPortal = `http://clinicasur.localhost:${e2ePorts.portal}`;

for (const viewport of [
  { width: 375, height: 667 },
  { width: 1280, height: 800 },
]) {
  test(`at ${viewport.width} px, the bill form names the patient of the RUT and accepts '21.839'`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await logIn(page, accounts.admin, "staff", southPortal);
    await page.goto(`${southPortal}/admin/edit-bills`);
    const rut = page.getByLabel("RUT del paciente");
    await rut.fill("12.345.678-5");
    await expect(rut).toHaveAccessibleDescription(/^Paciente: María/);

    await rut.fill("30.000.001-0");
    await rut.blur();
    await expect(rut).toHaveAccessibleDescription("No existe un paciente con ese RUT");
    await expect(rut).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByRole("button", { name: "Guardar cambios" })).toBeDisabled();
    await expect(page.getByText(/^Para guardar, complete/)).toBeVisible();

    const amount = page.getByLabel("Monto");
    await amount.fill("21.839");
    await amount.blur();
    await expect(page.getByText("Solo números", { exact: true })).toHaveCount(0);
  });
}
