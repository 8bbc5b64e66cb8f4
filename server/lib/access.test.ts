import { describe, expect, it } from "vitest";
import type { SessionUser } from "../http/authenticate.ts";
import { clinicScope, clinicScopeFilter, inClinicScope, visibleUsersWhere, type StaffActor } from "./access.ts";

const user = { id: 1, rut: "1-9", email: "a@b.cl", tokenVersion: 0, hasChangedPassword: true, dateTyc: null } as const;
const admin: StaffActor = { user: { ...user, roleType: 0 } as SessionUser, isAdmin: true, clinics: [] };
const executive: StaffActor = { user: { ...user, roleType: 1 } as SessionUser, isAdmin: false, clinics: ["HCS", "CMM"] };

describe("executive clinic scope", () => {
  it("gives an admin every clinic and no filter", () => {
    expect(clinicScope(admin)).toEqual({ all: true });
    expect(clinicScopeFilter(admin)).toBeUndefined();
    expect(inClinicScope(admin, "ANY")).toBe(true);
    expect(visibleUsersWhere(admin)).toEqual({});
  });

  it("limits an executive to the clinics of their privileges", () => {
    expect(clinicScope(executive)).toEqual({ all: false, clinics: ["HCS", "CMM"] });
    expect(clinicScopeFilter(executive)).toEqual({ in: ["HCS", "CMM"] });
    expect(inClinicScope(executive, "HCS")).toBe(true);
    expect(inClinicScope(executive, "OTRA")).toBe(false);
  });

  it("gives an executive without privileges an empty scope, not everything", () => {
    const none = { ...executive, clinics: [] };
    expect(clinicScopeFilter(none)).toEqual({ in: [] });
    expect(inClinicScope(none, "HCS")).toBe(false);
  });
});
