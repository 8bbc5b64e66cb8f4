import { expect, test, type Locator, type Page } from "@playwright/test";
import { accounts, logIn } from "../shell-helpers.ts";
import { e2ePorts } from "../support/ports.ts";
import { scrollsSideways } from "../users-helpers.ts";
import { tabTo } from "./keyboard.ts";

// What a person with low vision or motion sensitivity needs (issue 29): no sideways scrolling at 320 px (a 640 px
// screen at 200 % zoom) outside the data tables' own scroll areas, a focus ring and status dots of 3:1 or more
// against what surrounds them (text at 4.5:1 is checked by axe's color-contrast and web/src/styles/contrast.test.ts),
// and no motion for whoever asks for less. On the South clinic's portal, which has every patient menu entry.

const southPortal = `http://clinicasur.localhost:${e2ePorts.portal}`;
test.use({ baseURL: southPortal });

const zoomed = { width: 320, height: 640 };

/** Contrast ratio (WCAG) of two computed colours 'rgb(r, g, b)' / 'rgba(r, g, b, a)', the first drawn over the second. */
function contrast(foreground: string, background: string): number {
  const parse = (color: string) => (color.match(/[\d.]+/g) ?? []).map(Number);
  const [br = 255, bg = 255, bb = 255] = parse(background);
  const [fr = 0, fg = 0, fb = 0, alpha = 1] = parse(foreground);
  const blend = [fr * alpha + br * (1 - alpha), fg * alpha + bg * (1 - alpha), fb * alpha + bb * (1 - alpha)];
  const luminance = (rgb: number[]) => {
    const [r, g, b] = rgb.map((channel) => {
      const value = channel / 255;
      return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const [light, dark] = [luminance(blend), luminance([br, bg, bb])].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}

/** The colour behind an element: the first opaque background among its ancestors (white at the top). */
const backgroundBehind = (element: Locator) =>
  element.evaluate((node) => {
    for (let parent = node.parentElement; parent; parent = parent.parentElement) {
      const color = getComputedStyle(parent).backgroundColor;
      if (color !== "transparent" && !/rgba\(.*, 0\)$/.test(color)) return color;
    }
    return "rgb(255, 255, 255)";
  });

/** The focused element's outline colour against the colour around it. */
async function focusRingContrast(page: Page, element: Locator): Promise<number> {
  await expect(element).toBeFocused();
  const outline = await element.evaluate((node) => getComputedStyle(node).outlineColor);
  return contrast(outline, await backgroundBehind(element));
}

/** Widths of elements wider than the window that are not inside a scroll area of their own. */
const overflowingElements = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .filter((element) => {
        for (let parent = element.parentElement; parent; parent = parent.parentElement) {
          if (["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(parent).overflowX)) return false;
        }
        return true;
      })
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`)
      .slice(0, 5),
  );

async function expectNoSidewaysScroll(page: Page, screen: string) {
  expect
    .soft(await scrollsSideways(page), `${screen} scrolls sideways at 320 px (${(await overflowingElements(page)).join(", ")})`)
    .toBe(false);
}

test("at 320 px no public or patient screen scrolls sideways", async ({ page }) => {
  await page.setViewportSize(zoomed);
  for (const [path, ready] of [
    ["/login", "Ingresar"],
    ["/admin-login", "Ingresar"],
    ["/recover-password", "Enviar"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("button", { name: ready })).toBeVisible();
    await expectNoSidewaysScroll(page, path);
  }
  await logIn(page, accounts.patient);
  for (const [path, heading] of [
    ["/dashboard/account-settings", "Mi cuenta"],
    ["/dashboard/scheduling", "Agendamiento"],
    ["/dashboard/laboratory", "Exámenes de laboratorio"],
    ["/dashboard/imaging", "Exámenes de imagenología"],
    ["/dashboard/my-bills", "Cuentas hospitalarias"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
    await expect(page.locator(".spinner-overlay")).toHaveCount(0);
    await expectNoSidewaysScroll(page, path);
  }
});

test("at 320 px no staff screen scrolls sideways", async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize(zoomed);
  await logIn(page, accounts.admin, "staff");
  for (const [path, heading] of [
    ["/admin/admin-users", "Usuarios y Pacientes"],
    ["/admin/create-user", "Crear cuenta de usuario"],
    ["/admin/admin-bills", "Cuentas hospitalarias"],
    ["/admin/edit-bills", "Cargar cuenta a Paciente"],
    ["/admin/audit", "Auditoría"],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole("heading", { name: heading, level: 1 })).toBeVisible();
    await expectNoSidewaysScroll(page, path);
  }
});

test("the focus ring and the status dots stand out 3:1 from what surrounds them", async ({ page }) => {
  await page.goto("/login");
  const rut = page.getByLabel("Rut");
  await tabTo(page, rut);
  expect(await focusRingContrast(page, rut)).toBeGreaterThanOrEqual(3);
  const enter = page.getByRole("button", { name: "Ingresar" });
  await tabTo(page, enter);
  expect(await focusRingContrast(page, enter)).toBeGreaterThanOrEqual(3);

  await logIn(page, accounts.patient);
  await page.goto("/dashboard/laboratory");
  await expect(page.getByRole("heading", { name: "Exámenes de laboratorio" })).toBeVisible();
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Saltar al contenido principal" });
  expect(await focusRingContrast(page, skip)).toBeGreaterThanOrEqual(3);
  const selected = page.getByRole("navigation").getByRole("link", { name: "Laboratorio" });
  await tabTo(page, selected);
  expect(await focusRingContrast(page, selected)).toBeGreaterThanOrEqual(3);
  const toggle = page.getByRole("button", { name: /Ver prestaciones de la orden 1234567803/ });
  await tabTo(page, toggle);
  expect(await focusRingContrast(page, toggle)).toBeGreaterThanOrEqual(3);

  await page.keyboard.press("Enter");
  const dots = page.locator(".result-status__dot");
  await expect(page.locator(".result-status--pending .result-status__dot").first()).toBeVisible();
  for (const dot of await dots.all()) {
    const fill = await dot.evaluate((node) => getComputedStyle(node).backgroundColor);
    expect(contrast(fill, await backgroundBehind(dot)), `dot ${fill}`).toBeGreaterThanOrEqual(3);
  }

  await page.goto("/dashboard/my-bills");
  await expect(page.locator(".bill-status__dot").first()).toBeVisible();
  for (const dot of await page.locator(".bill-status__dot").all()) {
    const fill = await dot.evaluate((node) => getComputedStyle(node).backgroundColor);
    expect(contrast(fill, await backgroundBehind(dot)), `bill dot ${fill}`).toBeGreaterThanOrEqual(3);
  }
});

test("with reduced motion asked for, transitions and animations are off; without it they run", async ({ page }) => {
  await page.goto("/login");
  const enter = page.getByRole("button", { name: "Ingresar" });
  await expect(enter).toBeVisible();
  // The blocking spinner shows only during a request: the same element is drawn for the check.
  const motion = () =>
    page.evaluate(() => {
      const spinner = document.createElement("div");
      spinner.className = "spinner";
      document.body.append(spinner);
      const animation = getComputedStyle(spinner).animationDuration;
      spinner.remove();
      const button = document.querySelector<HTMLElement>(".btn")!;
      return { animation, transition: getComputedStyle(button).transitionDuration };
    });
  const moving = await motion();
  expect(moving.animation).not.toBe("0s");
  expect(moving.transition.split(", ").some((duration) => duration !== "0s")).toBe(true);

  await page.emulateMedia({ reducedMotion: "reduce" });
  const still = await motion();
  expect(still.animation).toBe("0s");
  expect(still.transition.split(", ").every((duration) => duration === "0s")).toBe(true);
});
