import { describe, expect, it } from "vitest";
import { publicPagePath } from "./PublicShell.tsx";

describe("which addresses the public shell shows without loading the signed-in app", () => {
  it("shows the login, staff login and password recovery pages, with or without a trailing slash", () => {
    expect(publicPagePath("/login")).toBe("/login");
    expect(publicPagePath("/admin-login/")).toBe("/admin-login");
    expect(publicPagePath("/recover-password")).toBe("/recover-password");
  });

  it("shows the patient login at the site's root, like the router's redirect", () => {
    expect(publicPagePath("/")).toBe("/login");
  });

  it("leaves every other address to the app (guards, terms, portal pages, unknown pages)", () => {
    for (const path of ["/accept-tyc", "/dashboard/my-bills", "/admin/admin-users", "/dashboard", "/no-existe", "/login/extra"]) {
      expect(publicPagePath(path)).toBeNull();
    }
  });
});
