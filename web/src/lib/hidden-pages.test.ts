import { describe, expect, it } from "vitest";
import { hiddenPageRedirect, patientMenuHasBills } from "./hidden-pages.ts";

describe("hiddenPageRedirect", () => {
  it("sends a Maitenes patient who opens hospital bills directly to scheduling", () => {
    expect(hiddenPageRedirect("2", "maitenes", "/dashboard/my-bills")).toBe("/dashboard/scheduling");
    expect(hiddenPageRedirect("2", "maitenes", "/dashboard/my-bills/")).toBe("/dashboard/scheduling");
  });

  it("lets a Maitenes patient open the pages of the reduced menu", () => {
    for (const path of ["/dashboard/scheduling", "/dashboard/imaging", "/dashboard/laboratory", "/dashboard/account-settings"]) {
      expect(hiddenPageRedirect("2", "maitenes", path)).toBeNull();
    }
  });

  it("lets patients of the other clinics open hospital bills", () => {
    expect(hiddenPageRedirect("2", "hcs-rcr", "/dashboard/my-bills")).toBeNull();
    expect(hiddenPageRedirect("2", "lircay-rcr", "/dashboard/my-bills")).toBeNull();
  });

  it("says which clinics' patient menus have hospital bills", () => {
    expect(patientMenuHasBills("maitenes")).toBe(false);
    expect(patientMenuHasBills("hcs-rcr")).toBe(true);
    expect(patientMenuHasBills("lircay-rcr")).toBe(true);
  });
});
