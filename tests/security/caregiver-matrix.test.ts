import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTING_FOR_HEADER, CAREGIVER_PARTS, caregiverMessages, type CaregiverPart } from "../../server/contract/caregivers.ts";
import { normalizeRut } from "../../server/contract/rut.ts";
import { dayToDate } from "../../server/contract/days.ts";
import { chileToday } from "../../server/lib/chile-time.ts";
import { createBill, insertUser, rutOf } from "../helpers/fixtures.ts";
import { demo } from "../helpers/test-app.ts";
import { restEndpoints, trpcEndpoints, type Endpoint } from "./support/endpoints.ts";
import { answerMessage } from "./support/answers.ts";
import { createSecurityContext, type SecurityContext } from "./support/security-context.ts";

// Issue 30: caregiver × dependent × part × link state, over every REST route and tRPC procedure that declares a
// caregiver part (read from the route table and the router, so a route added later with a part is checked too).

type LinkState = "vigente" | "sin esta parte" | "vencido" | "revocado" | "sin vínculo";
const states: LinkState[] = ["vigente", "sin esta parte", "vencido", "revocado", "sin vínculo"];

let security: SecurityContext;
let endpoints: Endpoint[];
let caregiverId: number;
/** The dependent of each state (for "sin esta parte", one per part); and one bill of each, for the routes by bill id. */
const dependents = new Map<string, { id: number; billId: number }>();
const key = (state: LinkState, part: CaregiverPart) => (state === "sin esta parte" ? `${state}:${part}` : state);

beforeAll(async () => {
  security = await createSecurityContext({ OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: "0" });
  endpoints = [...restEndpoints(security.ctx.app), ...trpcEndpoints()].filter((endpoint) => endpoint.caregiverPart);
  const prisma = security.ctx.db.prisma;
  caregiverId = (await prisma.user.findUniqueOrThrow({ where: { rut: normalizeRut(demo.patient.rut) } })).id;
  const yesterday = dayToDate(chileToday());
  yesterday.setUTCDate(yesterday.getUTCDate() - 1);
  const plans: Array<[string, { parts: CaregiverPart[]; expiresOn?: Date; revokedAt?: Date } | null]> = [
    ["vigente", { parts: [...CAREGIVER_PARTS] }],
    ...CAREGIVER_PARTS.map((part): [string, { parts: CaregiverPart[] }] => [
      key("sin esta parte", part),
      { parts: CAREGIVER_PARTS.filter((p) => p !== part) },
    ]),
    ["vencido", { parts: [...CAREGIVER_PARTS], expiresOn: yesterday }],
    ["revocado", { parts: [...CAREGIVER_PARTS], revokedAt: new Date() }],
    ["sin vínculo", null],
  ];
  let body = 30_100_000;
  for (const [name, plan] of plans) {
    const rut = rutOf(++body);
    const id = await insertUser(prisma, {
      rut,
      email: `dependiente${body}@correo.cl`,
      roleType: 2,
      firstName: "Dependiente",
      patientClinics: ["hcs-rcr"],
    });
    const bill = await createBill(prisma, normalizeRut(rut));
    if (plan)
      await prisma.caregiverLink.create({
        data: {
          caregiverId,
          dependentId: id,
          relationship: "otro",
          documentSeen: "Poder simple",
          parts: plan.parts,
          expiresOn: plan.expiresOn ?? dayToDate("2030-12-31"),
          revokedAt: plan.revokedAt ?? null,
          createdById: caregiverId,
        },
      });
    dependents.set(name, { id, billId: bill.id });
  }
});
afterAll(() => security.ctx.close());

describe("caregiver permission matrix", () => {
  it("finds the acting routes in the route table and the router: every part, REST and tRPC", () => {
    const names = endpoints.map((endpoint) => endpoint.name);
    for (const expected of [
      "GET /api/rcr/v1/orders",
      "GET /api/rcr/v1/orders-imaging",
      "GET /api/rcr/v1/files/accounts/:rut",
      "POST /api/rcr/v1/payment/generate-transaction-new-prod",
      "GET /api/rcr/v1/scheduling/patient",
      "trpc laboratory.orders (query)",
      "trpc bills.mine (query)",
      "trpc payments.start (mutation)",
      "trpc caregivers.schedulingPatient (query)",
    ])
      expect(names).toContain(expected);
    expect(new Set(endpoints.map((endpoint) => endpoint.caregiverPart))).toEqual(new Set(CAREGIVER_PARTS));
  });

  // A refused attempt lands in the dependent's log when the caller is or was their caregiver; with no link at all, only in
  // the admins' trail (issue 42: nobody writes into a stranger's log).
  it("admits a live link covering the part; refuses a link without it, expired, revoked or absent (403, audited); never 5xx", async () => {
    const failures: string[] = [];
    const deniedRows = (dependentId: number, state: LinkState) =>
      security.ctx.db.prisma.auditEvent.count({
        where:
          state === "sin vínculo"
            ? { actorId: caregiverId, patientId: null, outcome: "denied", after: { path: ["otherPatientId"], equals: dependentId } }
            : { actorId: caregiverId, patientId: dependentId, outcome: "denied" },
      });
    for (const endpoint of endpoints) {
      const part = endpoint.caregiverPart!;
      for (const state of states) {
        const dependent = dependents.get(key(state, part))!;
        const deniedBefore = await deniedRows(dependent.id, state);
        const answer = await security.call(endpoint, "patient", {
          id: dependent.billId,
          headers: { [ACTING_FOR_HEADER]: String(dependent.id) },
        });
        const where = `${endpoint.name} · ${part} · ${state}: ${answer.statusCode} ${answer.body.slice(0, 120)}`;
        if (answer.statusCode >= 500) failures.push(`5xx — ${where}`);
        else if (state === "vigente") {
          if (answer.statusCode === 401 || answer.statusCode === 403) failures.push(`refused a live link — ${where}`);
        } else {
          if (answer.statusCode !== 403 || answerMessage(answer) !== caregiverMessages.notLinked) failures.push(`expected 403 — ${where}`);
          const deniedAfter = await deniedRows(dependent.id, state);
          if (deniedAfter !== deniedBefore + 1) failures.push(`not audited as denied — ${where}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("staff naming a dependent get the staff answer of each route, never a patient's data through a link", async () => {
    const failures: string[] = [];
    const dependent = dependents.get("vigente")!;
    for (const endpoint of endpoints.filter((candidate) => candidate.access === "patient")) {
      const answer = await security.call(endpoint, "executive", {
        id: dependent.billId,
        headers: { [ACTING_FOR_HEADER]: String(dependent.id) },
      });
      if (answer.statusCode !== 403) failures.push(`${endpoint.name}: ${answer.statusCode}`);
    }
    expect(failures).toEqual([]);
  });
});
