import { describe, expect, it } from "vitest";
import { dashboardPages } from "../../web/src/app/pages.ts";
import { patientScreens } from "../../scripts/lighthouse-screens.mjs";

// Issue 46 §1: every patient screen meets the Lighthouse budgets, so npm run test:lighthouse must audit each of them.

describe("the screens npm run test:lighthouse audits", () => {
  it("include every page of the patient's area, by its address", () => {
    const audited = patientScreens.map((screen) => screen.path).sort();
    const pages = Object.keys(dashboardPages)
      .map((page) => `/dashboard/${page}`)
      .sort();
    expect(audited).toEqual(pages);
  });
});
