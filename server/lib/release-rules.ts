import { z } from "zod";
import type { LabOrder, LabProcedure } from "../providers/lab/lab.provider.ts";
import { PENDING } from "../providers/lab/lab.provider.ts";

// Results a clinic holds back on purpose (issue 31): tests whose values are given only in person, and tests shown only
// some days after the order so a clinician can talk to the patient first. The rule is applied to an order once, here,
// and every way a result leaves the portal (list, detail, PDF, trends, notices, the data download) reads the order
// through it.

export const IN_PERSON_NOTE = "Este resultado se entrega en forma presencial";

const ZClinicRelease = z.object({
  /** Test codes (LOINC at most laboratories) whose values the portal never shows. */
  inPerson: z.array(z.string().min(1)).default([]),
  /** Test code → days after the order's date before the portal shows its value. */
  delayDays: z.record(z.string().min(1), z.number().int().min(1).max(365)).default({}),
});

/** Clinic key (or "*" for every clinic) → its rules; an order follows "*" and the rules of the clinic that ran it. */
export const ZReleaseRules = z.record(z.string(), ZClinicRelease);
export type ReleaseRules = z.infer<typeof ZReleaseRules>;

/** RESULT_RELEASE_RULES: JSON, e.g. {"hcs-rcr":{"inPerson":["2857-1"],"delayDays":{"22637-3":7}}}. */
export const releaseRulesSetting = z
  .string()
  .default("{}")
  .transform((text, context): ReleaseRules => {
    let json: unknown;
    try {
      json = text.trim() === "" ? {} : JSON.parse(text);
    } catch {
      context.addIssue({ code: "custom", message: "RESULT_RELEASE_RULES no es JSON válido" });
      return z.NEVER;
    }
    const parsed = ZReleaseRules.safeParse(json);
    if (!parsed.success) {
      context.addIssue({ code: "custom", message: `RESULT_RELEASE_RULES: ${parsed.error.issues[0]?.message ?? "reglas inválidas"}` });
      return z.NEVER;
    }
    return parsed.data;
  });

export type ResultRelease = { kind: "released" } | { kind: "in-person" } | { kind: "held"; until: string };

/** YYYY-MM-DD plus `days` calendar days. */
function addDays(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** Whether one test of an order taken on `orderDay` at `clinicKey` may be shown on `today` (YYYY-MM-DD, Chile). */
export function releaseOf(
  rules: ReleaseRules,
  clinicKey: string | null,
  code: string | null,
  orderDay: string,
  today: string,
): ResultRelease {
  if (!code) return { kind: "released" };
  const applicable = [rules["*"], clinicKey ? rules[clinicKey] : undefined].filter((rule) => rule !== undefined);
  if (applicable.some((rule) => rule.inPerson.includes(code))) return { kind: "in-person" };
  const delay = Math.max(0, ...applicable.map((rule) => rule.delayDays[code] ?? 0));
  const until = addDays(orderDay, delay);
  return delay > 0 && today < until ? { kind: "held", until } : { kind: "released" };
}

/** A procedure as the patient may see it: a held one is still pending, an in-person one carries the note; neither has values. */
export interface ReleasedProcedure extends LabProcedure {
  releaseNote: string | null;
}

/** An order as the patient may see it. */
export interface ReleasedLabOrder extends Omit<LabOrder, "results"> {
  results: ReleasedProcedure[];
  /** IN_PERSON_NOTE when some test of the order is given only in person. */
  releaseNote: string | null;
  /** Whether anything of the order is held back now (its PDF is then not handed out: it carries every value). */
  withheld: boolean;
}

const withoutValues = (procedure: LabProcedure): LabProcedure => ({ ...procedure, quantity: null, referenceRange: null, flag: null });

/** The one place the release rules are applied to an order. */
export function releaseLabOrder<T extends LabOrder>(rules: ReleaseRules, order: T, today: string): Omit<T, "results"> & ReleasedLabOrder {
  let inPerson = false;
  let held = false;
  const results = order.results.map((procedure): ReleasedProcedure => {
    const release = releaseOf(rules, order.clinicKey, procedure.code, order.date, today);
    if (release.kind === "in-person") {
      inPerson = true;
      return { ...withoutValues(procedure), releaseNote: IN_PERSON_NOTE };
    }
    if (release.kind === "held") {
      held = true;
      return { ...withoutValues(procedure), status: PENDING, releaseNote: null };
    }
    return { ...procedure, releaseNote: null };
  });
  const withheld = inPerson || held;
  return {
    ...order,
    results,
    status: held ? PENDING : order.status,
    reportUrl: withheld ? null : order.reportUrl,
    releaseNote: inPerson ? IN_PERSON_NOTE : null,
    withheld,
  };
}
