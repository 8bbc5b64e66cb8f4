import { describe, expect, it } from "vitest";
import { caregiverMessages, ZRenewCaregiverLink } from "../../contract/caregivers.ts";
import { checkExpiry, eighteenthBirthday, isMinorsGuardianLink, isMinorToday } from "./caregiver-links.ts";

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);

describe("a minor's caregiver link", () => {
  it("ends on the 18th birthday; a 29 February birthday turns 18 on 1 March", () => {
    expect(eighteenthBirthday(day("2014-06-12"))).toBe("2032-06-12");
    expect(eighteenthBirthday(day("2008-02-29"))).toBe("2026-03-01");
  });

  it("is a minor's until the day they turn 18, and an adult's from that day", () => {
    expect(isMinorToday(day("2026-11-27"), "2026-11-26")).toBe(true);
    expect(isMinorToday(day("2026-11-26"), "2026-11-26")).toBe(false);
    expect(isMinorToday(null, "2026-11-26")).toBe(false);
  });

  it("cannot be revoked by the minor when it is a parent's or legal guardian's; an 'otro' link or an adult's can", () => {
    const minorUntil = day("2030-01-01");
    expect(isMinorsGuardianLink({ relationship: "madre", minorUntil }, "2026-11-26")).toBe(true);
    expect(isMinorsGuardianLink({ relationship: "tutor-legal", minorUntil }, "2026-11-26")).toBe(true);
    expect(isMinorsGuardianLink({ relationship: "otro", minorUntil }, "2026-11-26")).toBe(false);
    expect(isMinorsGuardianLink({ relationship: "padre", minorUntil }, "2030-01-01")).toBe(false);
  });

  it("refuses an end date in the past, and one after the 18th birthday unless it is a renewal", () => {
    expect(() => checkExpiry("2026-11-25", null, { renewal: false }, "2026-11-26")).toThrow(caregiverMessages.expiresInPast);
    expect(checkExpiry("2026-11-26", null, { renewal: false }, "2026-11-26")).toBe("2026-11-26");
    expect(() => checkExpiry("2032-06-13", "2032-06-12", { renewal: false }, "2026-11-26")).toThrow(caregiverMessages.expiresAfterEighteen);
    expect(checkExpiry("2032-06-12", "2032-06-12", { renewal: false }, "2026-11-26")).toBe("2032-06-12");
    expect(checkExpiry("2033-01-31", "2032-06-12", { renewal: true }, "2026-11-26")).toBe("2033-01-31");
  });
});

describe("the end date of any link", () => {
  it("is a day that exists: 31 February or 31 April is refused in Spanish, not rolled into March or May", () => {
    expect(() => checkExpiry("2027-02-31", null, { renewal: false }, "2026-11-26")).toThrow(caregiverMessages.notACalendarDay);
    expect(() => checkExpiry("2027-04-31", null, { renewal: true }, "2026-11-26")).toThrow(caregiverMessages.notACalendarDay);
    expect(() => checkExpiry("2027-02-29", null, { renewal: false }, "2026-11-26")).toThrow(caregiverMessages.notACalendarDay);
    expect(checkExpiry("2027-02-28", null, { renewal: false }, "2026-11-26")).toBe("2027-02-28");
    expect(ZRenewCaregiverLink.safeParse({ expiresOn: "2027-02-31" }).error?.issues[0]?.message).toBe(caregiverMessages.notACalendarDay);
    expect(ZRenewCaregiverLink.safeParse({ expiresOn: "2028-02-29" }).success).toBe(true);
  });

  it("is at most a year away for an adult, on creation and on renewal", () => {
    expect(checkExpiry("2027-11-26", null, { renewal: false }, "2026-11-26")).toBe("2027-11-26");
    expect(() => checkExpiry("2027-11-27", null, { renewal: false }, "2026-11-26")).toThrow(caregiverMessages.adultAtMostOneYear);
    expect(checkExpiry("2027-11-26", null, { renewal: true }, "2026-11-26")).toBe("2027-11-26");
    expect(() => checkExpiry("2027-11-27", null, { renewal: true }, "2026-11-26")).toThrow(caregiverMessages.renewedAtMostOneYear);
    // An adult who turned 18 long ago: the minor's date no longer counts.
    expect(() => checkExpiry("2027-11-27", "2020-01-01", { renewal: false }, "2026-11-26")).toThrow(caregiverMessages.adultAtMostOneYear);
  });

  it("renewed while the dependent is a minor, may reach a year past their 18th birthday", () => {
    expect(checkExpiry("2033-06-12", "2032-06-12", { renewal: true }, "2026-11-26")).toBe("2033-06-12");
    expect(() => checkExpiry("2033-06-13", "2032-06-12", { renewal: true }, "2026-11-26")).toThrow(caregiverMessages.renewedAtMostOneYear);
  });
});
