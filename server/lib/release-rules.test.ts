import { describe, expect, it } from "vitest";
import type { LabOrder, LabProcedure } from "../providers/lab/lab.provider.ts";
import { IN_PERSON_NOTE, releaseLabOrder, releaseOf, releaseRulesSetting, type ReleaseRules } from "./release-rules.ts";

const rules: ReleaseRules = {
  "*": { inPerson: ["HIV-1"], delayDays: {} },
  "hcs-rcr": { inPerson: ["2857-1"], delayDays: { "22637-3": 7 } },
};

const procedure = (code: string, value = 5): LabProcedure => ({
  name: `Examen ${code}`,
  status: "Validada",
  code,
  quantity: { value, unit: "mg/dL" },
  referenceRange: { low: 1, high: 10 },
  flag: "N",
});

const order = (clinicKey: string | null, ...results: LabProcedure[]): LabOrder => ({
  orderNumber: "1001",
  date: "2026-03-10",
  prestacion: "Perfil",
  status: "Validada",
  reportUrl: "https://lis/fhir/Binary/1",
  clinicKey,
  results,
});

describe("result release rules", () => {
  it("withholds a test the clinic gives in person, at that clinic only; '*' names tests held at every clinic", () => {
    expect(releaseOf(rules, "hcs-rcr", "2857-1", "2026-03-10", "2027-01-01")).toEqual({ kind: "in-person" });
    expect(releaseOf(rules, "portada-rcr", "2857-1", "2026-03-10", "2026-03-10")).toEqual({ kind: "released" });
    expect(releaseOf(rules, null, "HIV-1", "2026-03-10", "2026-03-10")).toEqual({ kind: "in-person" });
    expect(releaseOf(rules, "portada-rcr", "HIV-1", "2026-03-10", "2026-03-10")).toEqual({ kind: "in-person" });
  });

  it("holds a delayed test until its day has come, then shows it", () => {
    expect(releaseOf(rules, "hcs-rcr", "22637-3", "2026-03-10", "2026-03-16")).toEqual({ kind: "held", until: "2026-03-17" });
    expect(releaseOf(rules, "hcs-rcr", "22637-3", "2026-03-10", "2026-03-17")).toEqual({ kind: "released" });
    expect(releaseOf(rules, "lircay-rcr", "22637-3", "2026-03-10", "2026-03-10")).toEqual({ kind: "released" });
  });

  it("gives an order with an in-person test the note, no values for that test and no PDF (it carries every value)", () => {
    const released = releaseLabOrder(rules, order("hcs-rcr", procedure("2345-7"), procedure("2857-1")), "2026-04-01");
    expect(released.releaseNote).toBe(IN_PERSON_NOTE);
    expect(released.reportUrl).toBeNull();
    expect(released.results[0]).toMatchObject({ quantity: { value: 5 }, releaseNote: null });
    expect(released.results[1]).toMatchObject({ quantity: null, referenceRange: null, flag: null, releaseNote: IN_PERSON_NOTE });
  });

  it("shows an order with a held test as pending, without that value or the PDF, until the delay is over", () => {
    const held = releaseLabOrder(rules, order("hcs-rcr", procedure("2345-7"), procedure("22637-3")), "2026-03-12");
    expect(held).toMatchObject({ status: "Pendiente Validación", reportUrl: null, releaseNote: null, withheld: true });
    expect(held.results[1]).toMatchObject({ status: "Pendiente Validación", quantity: null });
    const later = releaseLabOrder(rules, order("hcs-rcr", procedure("2345-7"), procedure("22637-3")), "2026-03-20");
    expect(later).toMatchObject({ status: "Validada", reportUrl: "https://lis/fhir/Binary/1", withheld: false });
  });

  it("leaves an order without rules as the laboratory gave it", () => {
    const plain = order("portada-rcr", procedure("2345-7"));
    expect(releaseLabOrder(rules, plain, "2026-03-10")).toMatchObject({ ...plain, releaseNote: null, withheld: false });
  });

  it("reads the rules from JSON configuration and refuses a malformed setting", () => {
    expect(releaseRulesSetting.parse('{"hcs-rcr":{"inPerson":["2857-1"]}}')).toEqual({
      "hcs-rcr": { inPerson: ["2857-1"], delayDays: {} },
    });
    expect(releaseRulesSetting.safeParse("{no es json").success).toBe(false);
    expect(releaseRulesSetting.safeParse('{"hcs-rcr":{"delayDays":{"x":-1}}}').success).toBe(false);
  });
});
