import { describe, expect, it } from "vitest";
import { adminPages, dashboardPages } from "./pages.ts";
import { screenTitleOf } from "../lib/document-title.ts";

describe("screenTitleOf", () => {
  it("names every signed-in page of the route table, so no tab is left titled 'Página no encontrada'", () => {
    const paths = [
      ...Object.keys(dashboardPages).map((page) => `/dashboard/${page}`),
      ...Object.keys(adminPages).map((page) => `/admin/${page}`),
    ];
    for (const path of paths) expect(screenTitleOf(path), path).not.toBe("Página no encontrada");
  });

  it("tells creating a bill from changing one, and ignores a trailing slash", () => {
    expect(screenTitleOf("/admin/edit-bills")).toBe("Cargar cuenta a Paciente");
    expect(screenTitleOf("/admin/edit-bills", "?accountCode=7100&accountId=3")).toBe("Modificar cuenta hospitalaria");
    expect(screenTitleOf("/dashboard/account-settings/")).toBe("Mi cuenta");
  });

  it("says 'Página no encontrada' for an address outside the route table", () => {
    expect(screenTitleOf("/dashboard/no-existe")).toBe("Página no encontrada");
  });
});
