import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTING_FOR_HEADER, caregiverMessages } from "../../server/contract/caregivers.ts";
import { dayToDate } from "../../server/contract/days.ts";
import { Role } from "../../server/contract/roles.ts";
import { recordAudit } from "../../server/lib/audit.ts";
import { createBill, insertUser, plainRutOf } from "../helpers/fixtures.ts";
import { api, bearer, createTestContext, type TestContext } from "../helpers/test-app.ts";
import { answerMessage } from "./support/answers.ts";

// Issue 42, point 3: nobody writes into another patient's 'Accesos a mis datos' under a name of their choosing. An
// account with no caregiver link to a patient is never shown in that patient's log — its refused attempts (X-Actuar-Por
// with the patient's id, the patient's bill ids probed one by one) stay in the admins' trail — and such refusals are
// limited per account (here 10 per window, to keep the test short; 30 per hour by default).

const LIMIT = 10;
let ctx: TestContext;
let nextBody = 30_400_000;
const warnings: string[] = [];

interface Person {
  id: number;
  rut: string;
  token: string;
}

async function patient(firstName: string): Promise<Person> {
  const body = ++nextBody;
  const rut = plainRutOf(body);
  const id = await insertUser(ctx.db.prisma, {
    rut,
    email: `persona${body}@correo.cl`,
    roleType: Role.patient,
    password: "Paciente2026",
    firstName,
    lastName: "Prueba",
    patientClinics: ["hcs-rcr"],
  });
  return { id, rut, token: await ctx.login(rut, "Paciente2026") };
}

const get = (person: Person, path: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: "GET", url: api(path), headers: { ...bearer(person.token), ...headers } });
const trpc = (person: Person, path: string, input: unknown, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: "GET",
    url: `/trpc/${path}?input=${encodeURIComponent(JSON.stringify(input))}`,
    headers: { ...bearer(person.token), ...headers },
  });
const actingFor = (person: Person) => ({ [ACTING_FOR_HEADER]: String(person.id) });

/** What the patient reads in 'Accesos a mis datos' (every row, newest first). */
async function accessLog(person: Person) {
  const answer = await get(person, "/patient/accesses?limit=100");
  expect(answer.statusCode).toBe(200);
  return answer.json().payload as {
    total: number;
    entries: Array<{ action: string; outcome: string; actor: { kind: string; name?: string } }>;
  };
}

beforeAll(async () => {
  ctx = await createTestContext({ REFUSED_ACCESS_MAX_PER_ACCOUNT: String(LIMIT) });
  ctx.app.deps.logWarn = (_details, message) => void warnings.push(message);
});
afterAll(() => ctx.close());

describe("an account with no link never writes into another patient's log", () => {
  it("a patient renamed 'Administración Clínica' sending X-Actuar-Por with the victim's id: 403, nothing in the victim's log", async () => {
    const victim = await patient("Victoria");
    const attacker = await patient("Atacante");
    const renamed = await ctx.app.inject({
      method: "PATCH",
      url: api("/auth/user-edit"),
      headers: bearer(attacker.token),
      payload: {
        firstName: "Administración",
        lastName: "Clínica",
        secondLastName: "Clínica",
        email: "admin.clinica@correo.cl",
        phoneNumber: "+56 9 8765 4321",
        birthDate: "1980-01-01",
      },
    });
    expect(renamed.statusCode).toBe(200);
    const before = await accessLog(victim);

    const rest = await get(attacker, "/orders", actingFor(victim));
    const overTrpc = await trpc(attacker, "laboratory.orders", { fecha_inicio: "", fecha_termino: "" }, actingFor(victim));
    const bills = await get(attacker, `/files/accounts/${victim.rut}`, actingFor(victim));
    for (const answer of [rest, overTrpc, bills]) {
      expect(answer.statusCode).toBe(403);
      expect(answerMessage(answer)).toBe(caregiverMessages.notLinked);
    }

    const after = await accessLog(victim);
    expect(after.total).toBe(before.total);
    expect(after.entries.filter((entry) => entry.actor.kind === "caregiver")).toEqual([]);
    // The admins' trail keeps each attempt, by the account that made it, with the patient it named.
    const trail = await ctx.db.prisma.auditEvent.findMany({ where: { actorId: attacker.id, outcome: "denied" } });
    expect(trail).toHaveLength(3);
    for (const row of trail) {
      expect(row.patientId).toBeNull();
      expect(row.after).toMatchObject({ actingFor: victim.id, otherPatientId: victim.id });
    }
  });

  it("rows an unlinked account left before this rule are not shown either; a former caregiver's refused attempt is", async () => {
    const victim = await patient("Valeria");
    const stranger = await patient("Extraño");
    const former = await patient("Exmarido");
    await ctx.db.prisma.caregiverLink.create({
      data: {
        caregiverId: former.id,
        dependentId: victim.id,
        relationship: "otro",
        documentSeen: "Poder simple",
        parts: ["resultados"],
        expiresOn: dayToDate("2030-12-31"),
        revokedAt: new Date(),
        createdById: victim.id,
      },
    });
    // As the portal wrote them before issue 42: the stranger named as acting on the victim.
    await recordAudit(ctx.db.prisma, {
      actorId: stranger.id,
      actorRole: Role.patient,
      action: "lab.orders.list",
      resource: "LabOrder",
      patientId: victim.id,
      outcome: "denied",
    });
    expect((await get(former, "/orders", actingFor(victim))).statusCode).toBe(403);

    const log = await accessLog(victim);
    expect(log.entries.map((entry) => entry.actor)).toEqual([{ kind: "caregiver", name: "Exmarido Prueba" }]);
    expect(log.entries[0]).toMatchObject({ action: "lab.orders.list", outcome: "denied" });
  });

  it("probing bill ids one after another answers every id like a missing one and reaches no owner's log", async () => {
    const prober = await patient("Sondeo");
    const owners = [await patient("Dueña"), await patient("Dueño")];
    const first = (await createBill(ctx.db.prisma, owners[0]!.rut)).id;
    expect((await createBill(ctx.db.prisma, owners[1]!.rut)).id).toBe(first + 1);
    const probes = [
      (id: number) => get(prober, `/payment/account-status/?accountId=${id}`),
      (id: number) => get(prober, `/files/list/${id}`),
      (id: number) => trpc(prober, "bills.status", { id }),
    ];
    const missing = await Promise.all(probes.map((probe) => probe(2_000_000_000)));
    const logsBefore = await Promise.all(owners.map(accessLog));

    // 3 missing ids and 6 others' bills: 9 refusals, within the limit.
    for (const id of [first, first + 1])
      for (const [index, probe] of probes.entries()) {
        const answer = await probe(id);
        expect(answer.statusCode, `bill ${id}`).toBe(404);
        expect(answer.body, `bill ${id}`).toBe(missing[index]!.body);
      }
    const logsAfter = await Promise.all(owners.map(accessLog));
    expect(logsAfter.map((log) => log.total)).toEqual(logsBefore.map((log) => log.total));
    const trail = await ctx.db.prisma.auditEvent.count({ where: { actorId: prober.id, outcome: "denied", patientId: { not: null } } });
    expect(trail).toBe(0);
  });
});

describe("refused reaches for others' data are limited per account", () => {
  it(`past ${LIMIT} refusals the account gets a clear 429 in Spanish, over REST and tRPC, for a whole window`, async () => {
    const prober = await patient("Insistente");
    const victim = await patient("Verónica");
    const bill = await createBill(ctx.db.prisma, victim.rut);
    for (let attempt = 1; attempt <= LIMIT; attempt++) {
      const answer =
        attempt % 2
          ? await get(prober, "/payment/history", actingFor(victim))
          : await get(prober, `/payment/account-status/?accountId=${bill.id + 1_000_000 + attempt}`);
      expect(answer.statusCode, `attempt ${attempt}`).toBe(attempt % 2 ? 403 : 404);
    }
    warnings.length = 0;
    const limited = [
      await get(prober, "/payment/history", actingFor(victim)),
      await get(prober, `/payment/account-status/?accountId=${bill.id}`),
      await trpc(prober, "bills.status", { id: bill.id }),
      await trpc(prober, "payments.history", {}, actingFor(victim)),
    ];
    for (const answer of limited) {
      expect(answer.statusCode).toBe(429);
      expect(answerMessage(answer)).toMatch(
        /^Hizo demasiadas solicitudes de datos a los que su cuenta no tiene acceso\. Espere (60|59) minutos e intente nuevamente\.$/,
      );
    }
    expect(warnings).toEqual(["access: an account passed its refused-access limit"]);
    // Only the refusal that crossed the limit is written; the ones after it add nothing to the append-only trail.
    const denied = await ctx.db.prisma.auditEvent.count({ where: { actorId: prober.id, outcome: "denied" } });
    expect(denied).toBe(LIMIT / 2 + 1);
  });

  it("leaves the limited account its own data, and other accounts and staff their usual answers", async () => {
    const prober = await patient("Porfiado");
    const other = await patient("Tranquila");
    for (let attempt = 0; attempt <= LIMIT; attempt++) await get(prober, "/orders", actingFor(other));
    expect((await get(prober, "/orders", actingFor(other))).statusCode).toBe(429);
    expect((await get(prober, "/orders")).statusCode).toBe(200);
    expect((await get(prober, "/payment/history")).statusCode).toBe(200);
    expect((await get(other, "/orders", actingFor(prober))).statusCode).toBe(403);
  });
});
