import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { ACTING_FOR_HEADER } from "../../server/contract/caregivers.ts";
import { dayToDate } from "../../server/contract/days.ts";
import { chileToday } from "../../server/lib/chile-time.ts";
import { insertPatient, plainRutOf } from "../helpers/fixtures.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// Issue 42, point 2: closing an account ends every caregiver link it is part of, in the closure's transaction, and
// every creation, renewal and end of a link is mailed to the dependent (for a minor, to the caregiver).

let ctx: TestContext;
const ids = { carla: 0, diego: 0, elena: 0, fabian: 0 };
const tokens = { carla: "", diego: "", admin: "" };

beforeAll(async () => {
  ctx = await createTestContext();
  const patient = (body: number, firstName: string) => insertPatient(ctx.db.prisma, body, firstName, "hcs-rcr");
  ids.carla = await patient(32000001, "Carla");
  ids.diego = await patient(32000002, "Diego");
  ids.elena = await patient(32000003, "Elena");
  ids.fabian = await patient(32000004, "Fabian");
  // Elena is ten years old.
  await ctx.db.prisma.user.update({
    where: { id: ids.elena },
    data: { birthDate: dayToDate(`${Number(chileToday().slice(0, 4)) - 10}-03-15`) },
  });
  tokens.carla = await ctx.login(plainRutOf(32000001), "Paciente2026");
  tokens.diego = await ctx.login(plainRutOf(32000002), "Paciente2026");
  tokens.admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
});
afterAll(() => ctx.close());

const inDays = (days: number) => {
  const date = dayToDate(chileToday());
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};
const shown = (day: string) => day.split("-").reverse().join("-");
const createLink = (dependentId: number, caregiverBody: number, overrides: object = {}) =>
  ctx.app.inject({
    method: "POST",
    url: api(`/admin/users/${dependentId}/caregivers`),
    headers: bearer(tokens.admin),
    payload: {
      caregiverRut: plainRutOf(caregiverBody),
      relationship: "otro",
      documentSeen: "Poder notarial N° 4567",
      parts: ["resultados", "agendamiento"],
      expiresOn: inDays(60),
      ...overrides,
    },
  });
const staffChange = (method: "PUT" | "DELETE", linkId: number, payload?: object) =>
  ctx.app.inject({ method, url: api(`/admin/caregivers/${linkId}`), headers: bearer(tokens.admin), ...(payload ? { payload } : {}) });
/** The newest mail to that address with that subject (mail goes through the durable queue: it may take a moment). */
const mailTo = (to: string, subject: string) =>
  vi.waitFor(
    async () => {
      const found = (await ctx.mail.list(to)).find((mail) => mail.subject === `Portal Pacientes - ${subject}`);
      if (!found) throw new Error(`No llegó '${subject}' a ${to}`);
      return found;
    },
    { timeout: 45_000, interval: 50 },
  );
const actingFor = (token: string, path: string, dependentId: number) =>
  ctx.app.inject({ method: "GET", url: api(path), headers: { ...bearer(token), [ACTING_FOR_HEADER]: String(dependentId) } });

describe("every change of a caregiver link is mailed, in the portal's voice", () => {
  it("creating, renewing and ending an adult's link mails the dependent, naming the caregiver, the parts and the end date", async () => {
    await ctx.mail.clear();
    const created = await createLink(ids.diego, 32000001);
    expect(created.statusCode).toBe(200);
    const linkId = created.json().payload.id as number;
    const createdMail = await mailTo("diego@correo.cl", "Nuevo vínculo de cuidador");
    expect(createdMail.text).toContain(`registró a Carla Prueba como su cuidador(a) en el Portal Pacientes, hasta el ${shown(inDays(60))}`);
    expect(createdMail.text).toContain("Resultados, Agendamiento");
    expect(createdMail.text).toContain("'Mi cuenta', sección 'Mis cuidadores'");

    expect((await staffChange("PUT", linkId, { expiresOn: inDays(90) })).statusCode).toBe(200);
    expect((await mailTo("diego@correo.cl", "Vínculo de cuidador renovado")).text).toContain(`hasta el ${shown(inDays(90))}`);

    expect((await staffChange("DELETE", linkId)).statusCode).toBe(200);
    expect((await mailTo("diego@correo.cl", "Vínculo de cuidador terminado")).text).toContain(
      "El vínculo de Carla Prueba como su cuidador(a) en el Portal Pacientes terminó. Esta persona ya no puede ver sus datos",
    );
    await ctx.app.deps.background.settled();
    expect(await ctx.mail.list("carla@correo.cl")).toEqual([]);
  });

  it("for a minor the caregiver is told instead, and the minor's address gets nothing", async () => {
    await ctx.mail.clear();
    const created = await createLink(ids.elena, 32000001, { relationship: "madre" });
    expect(created.statusCode).toBe(200);
    const mail = await mailTo("carla@correo.cl", "Nuevo vínculo de cuidador");
    expect(mail.text).toContain("registró su vínculo de cuidador(a) de Elena Prueba");
    expect(mail.text).toContain("'Ver como:'");
    expect((await staffChange("DELETE", created.json().payload.id)).statusCode).toBe(200);
    expect((await mailTo("carla@correo.cl", "Vínculo de cuidador terminado")).text).toContain(
      "Su vínculo de cuidador(a) de Elena Prueba en el Portal Pacientes terminó",
    );
    await ctx.app.deps.background.settled();
    expect(await ctx.mail.list("elena@correo.cl")).toEqual([]);
  });

  it("the dependent ending the link themself is mailed too (the record of who acts for them)", async () => {
    const created = await createLink(ids.fabian, 32000001);
    const fabian = await ctx.login(plainRutOf(32000004), "Paciente2026");
    const revoked = await ctx.app.inject({
      method: "DELETE",
      url: api(`/caregivers/mine/${created.json().payload.id}`),
      headers: bearer(fabian),
    });
    expect(revoked.statusCode).toBe(200);
    expect((await mailTo("fabian@correo.cl", "Vínculo de cuidador terminado")).text).toContain("El vínculo de Carla Prueba");
  });
});

describe("closing a portal account ends its caregiver links", () => {
  it("a caregiver reading the closed patient's results through X-Actuar-Por is refused once the closure is resolved", async () => {
    expect((await createLink(ids.diego, 32000001)).statusCode).toBe(200);
    expect((await createLink(ids.fabian, 32000002)).statusCode).toBe(200);
    expect((await actingFor(tokens.carla, "/orders", ids.diego)).statusCode).toBe(200);
    expect((await actingFor(tokens.carla, "/orders-imaging", ids.diego)).statusCode).toBe(200);

    const closure = await ctx.app.inject({
      method: "POST",
      url: api("/patient/rights-requests"),
      headers: bearer(tokens.diego),
      payload: { kind: "account_closure", details: "Ya no uso el portal" },
    });
    expect(closure.statusCode).toBe(200);
    await ctx.app.deps.background.settled();
    await ctx.mail.clear();
    const resolved = await ctx.app.inject({
      method: "PATCH",
      url: api(`/admin/rights-requests/${closure.json().payload.id}`),
      headers: bearer(tokens.admin),
      payload: { status: "resolved" },
    });
    expect(resolved.statusCode).toBe(200);

    expect((await actingFor(tokens.carla, "/orders", ids.diego)).statusCode).toBe(403);
    expect((await actingFor(tokens.carla, "/orders-imaging", ids.diego)).statusCode).toBe(403);
    const mine = (await ctx.app.inject({ method: "GET", url: api("/caregivers/mine"), headers: bearer(tokens.carla) })).json().payload;
    expect(mine.dependents.map((link: { dependent: { id: number } }) => link.dependent.id)).not.toContain(ids.diego);
  });

  it("ends, at the closure's instant, every link where the person is the dependent or the caregiver, audited in each dependent's log", async () => {
    const closedAt = (await ctx.db.prisma.user.findUniqueOrThrow({ where: { id: ids.diego } })).closedAt!;
    const links = await ctx.db.prisma.caregiverLink.findMany({ where: { OR: [{ dependentId: ids.diego }, { caregiverId: ids.diego }] } });
    // Carla → Diego (ended by staff in the first test, then made again) and Diego → Fabián.
    expect(links.length).toBe(3);
    expect(links.every((link) => link.revokedAt !== null)).toBe(true);
    const endedByClosure = links.filter((link) => link.revokedAt!.getTime() === closedAt.getTime());
    expect(endedByClosure.map((link) => [link.caregiverId, link.dependentId]).sort()).toEqual(
      [
        [ids.carla, ids.diego],
        [ids.diego, ids.fabian],
      ].sort(),
    );
    const audited = await ctx.db.prisma.auditEvent.findMany({
      where: { action: "caregiver.revoke", resourceId: { in: endedByClosure.map((link) => String(link.id)) } },
      select: { patientId: true, outcome: true },
    });
    expect(audited.map((row) => row.patientId).sort()).toEqual([ids.diego, ids.fabian].sort());
  });

  it("tells the other party of each ended link (the closed account's own mail says the rest)", async () => {
    expect((await mailTo("carla@correo.cl", "Vínculo de cuidador terminado")).text).toContain(
      "Su vínculo de cuidador(a) de Diego Prueba en el Portal Pacientes terminó",
    );
    expect((await mailTo("fabian@correo.cl", "Vínculo de cuidador terminado")).text).toContain(
      "El vínculo de Diego Prueba como su cuidador(a) en el Portal Pacientes terminó",
    );
    const toDiego = await ctx.mail.list("diego@correo.cl");
    expect(toDiego.map((mail) => mail.subject)).not.toContain("Portal Pacientes - Vínculo de cuidador terminado");
  });

  it("a closed account cannot be made anyone's caregiver again", async () => {
    const refused = await createLink(ids.fabian, 32000002);
    expect(refused.statusCode).toBe(400);
  });
});
