import { describe, expect, it } from "vitest";
import { menuFor } from "./menu.ts";

const visibleTitles = (items: ReturnType<typeof menuFor>) => items.filter((item) => !item.hide).map((item) => item.title);

describe("menuFor", () => {
  it("gives a patient the spec's five patient pages and 'Mis citas' in the spec's order", () => {
    const items = menuFor("2", "hcs-rcr");
    expect(visibleTitles(items)).toEqual([
      "Agendamiento",
      "Mis citas",
      "Imagenología",
      "Laboratorio",
      "Cuentas hospitalarias",
      "Mis datos",
    ]);
    expect(items.map((item) => item.url)).toEqual([
      "/dashboard/scheduling",
      "/dashboard/my-appointments",
      "/dashboard/imaging",
      "/dashboard/laboratory",
      "/dashboard/my-bills",
      "/dashboard/account-settings",
    ]);
  });

  it("hides hospital bills from patients on the Maitenes portal, and keeps 'Mis citas' there", () => {
    const items = menuFor("2", "maitenes");
    expect(visibleTitles(items)).toEqual(["Agendamiento", "Mis citas", "Imagenología", "Laboratorio", "Mis datos"]);
    expect(items.find((item) => item.url === "/dashboard/my-bills")).toMatchObject({ hide: true, isMaitenes: false });
  });

  it("gives admins and executives the staff menu on every clinic, Maitenes included, 'Solicitudes de pacientes' to both, and only admins 'Auditoría'", () => {
    for (const clinic of ["maitenes", "lircay-rcr"] as const) {
      const executive = menuFor("1", clinic);
      expect(visibleTitles(executive)).toEqual(["Usuarios y Pacientes", "Cuentas hospitalarias", "Solicitudes de pacientes", "Mi cuenta"]);
      expect(executive.map((item) => item.url)).toEqual([
        "/admin/admin-users",
        "/admin/admin-bills",
        "/admin/rights-requests",
        "/admin/account",
      ]);
      const admin = menuFor("0", clinic);
      expect(visibleTitles(admin)).toEqual([
        "Usuarios y Pacientes",
        "Cuentas hospitalarias",
        "Solicitudes de pacientes",
        "Auditoría",
        "Mi cuenta",
      ]);
      expect(admin.map((item) => item.url)).toEqual([
        "/admin/admin-users",
        "/admin/admin-bills",
        "/admin/rights-requests",
        "/admin/audit",
        "/admin/account",
      ]);
    }
  });

  it("gives an unknown portal type no menu", () => {
    expect(menuFor(null, "hcs-rcr")).toEqual([]);
    expect(menuFor("3", "hcs-rcr")).toEqual([]);
  });

  it("selects the item of the current page, with or without a trailing slash", () => {
    const selected = (path: string) =>
      menuFor("2", "hcs-rcr", path)
        .filter((item) => item.selected)
        .map((item) => item.title);
    expect(selected("/dashboard/account-settings/")).toEqual(["Mis datos"]);
    expect(selected("/dashboard/laboratory")).toEqual(["Laboratorio"]);
    expect(selected("/dashboard/laboratory-extra")).toEqual([]);
    expect(selected("")).toEqual([]);
  });

  it("keeps 'Usuarios y Pacientes' selected on the create and edit user screens, and bills on the bill form", () => {
    const selected = (path: string) => menuFor("0", "hcs-rcr", path).find((item) => item.selected)?.title;
    expect(selected("/admin/create-user")).toBe("Usuarios y Pacientes");
    expect(selected("/admin/edit-user")).toBe("Usuarios y Pacientes");
    expect(selected("/admin/edit-bills")).toBe("Cuentas hospitalarias");
    expect(selected("/admin/account")).toBe("Mi cuenta");
    expect(selected("/admin/change-password")).toBe("Mi cuenta");
    expect(menuFor("0", "hcs-rcr", "/admin/create-user")[0]).not.toHaveProperty("relatedUrls");
  });
});
