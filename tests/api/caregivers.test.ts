import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACTING_FOR_HEADER, caregiverMessages } from "../../server/contract/caregivers.ts";
import { normalizeRut } from "../../server/contract/rut.ts";
import { calendarDayOf, dayToDate } from "../../server/contract/days.ts";
import { listOwnBills } from "../../server/features/bills/bills.service.ts";
import { sessionUserSelect } from "../../server/http/authenticate.ts";
import { checkExpiry } from "../../server/features/caregivers/caregiver-links.ts";
import { chileToday } from "../../server/lib/chile-time.ts";
import { demoDependents } from "../../server/db/seed-caregivers.ts";
import { api, bearer, createTestContext, demo, secondInstance, type TestContext } from "../helpers/test-app.ts";

// Issue 30: a caregiver acts for a dependent through a link staff create; every request reads the link again.

let ctx: TestContext;
let caregiver: string;
let caregiverId: number;
let minorId: number;
let adultId: number;
let executive: string;
let admin: string;
beforeAll(async () => {
  // The shared machine's load is not what this file tests: no 503 for a slow event loop.
  ctx = await createTestContext({ OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: "0" });
  [caregiver, executive, admin] = await Promise.all([
    ctx.login(demo.patient.rut, demo.patient.password),
    ctx.login(demo.executive.rut, demo.executive.password, "staff"),
    ctx.login(demo.admin.rut, demo.admin.password, "staff"),
  ]);
  [caregiverId, minorId, adultId] = await Promise.all([
    idOf(demo.patient.rut),
    idOf(demoDependents.minor.rut),
    idOf(demoDependents.adult.rut),
  ]);
});
afterAll(() => ctx.close());

async function idOf(rut: string) {
  return (await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: normalizeRut(rut) }, select: { id: true } })).id;
}
const actingFor = (id: number) => ({ [ACTING_FOR_HEADER]: String(id) });
const get = (path: string, token: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: "GET", url: api(path), headers: { ...bearer(token), ...headers } });
const labOrders = (token: string, headers: Record<string, string> = {}) => get("/orders", token, headers);
const linkBetween = (dependentId: number) =>
  ctx.db.prisma.caregiverLink.findFirstOrThrow({ where: { caregiverId, dependentId }, orderBy: { id: "desc" } });
const inDays = (days: number) => {
  const date = dayToDate(chileToday());
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
};

describe("acting for a dependent through a live link (demo: María cares for Tomás, a minor, and José, an adult)", () => {
  it("seeds demo links that the portal's own rules would accept today (an adult's for at most a year)", async () => {
    const links = await ctx.db.prisma.caregiverLink.findMany({ select: { expiresOn: true, minorUntil: true } });
    expect(links.length).toBeGreaterThanOrEqual(2);
    for (const link of links) {
      const minorUntil = link.minorUntil ? calendarDayOf(link.minorUntil) : null;
      expect(() => checkExpiry(calendarDayOf(link.expiresOn), minorUntil, { renewal: false })).not.toThrow();
    }
  });

  it("lists the caregiver's dependents for 'Ver como:' with the parts each link covers", async () => {
    const response = await get("/caregivers/mine", caregiver);
    expect(response.statusCode).toBe(200);
    const { dependents, caregivers } = response.json().payload;
    expect(caregivers).toEqual([]);
    expect(
      dependents.map((link: { dependent: { rut: string; name: string }; parts: string[] }) => [link.dependent.rut, link.parts]),
    ).toEqual([
      ["24.567.890-8", ["agendamiento", "resultados", "cuentas-pagos"]],
      ["6.543.210-2", ["agendamiento", "resultados"]],
    ]);
  });

  it("reads the minor's laboratory orders (not her own) over REST, audited with her as actor and him as patient", async () => {
    const own = (await labOrders(caregiver)).json().payload as Array<{ orderNumber: string }>;
    const response = await labOrders(caregiver, actingFor(minorId));
    expect(response.statusCode).toBe(200);
    const orders = response.json().payload as Array<{ orderNumber: string; urlPDF: string | null }>;
    expect(orders.length).toBeGreaterThan(0);
    expect(orders.every((order) => order.orderNumber.startsWith("24567890"))).toBe(true);
    expect(own.every((order) => order.orderNumber.startsWith("12345678"))).toBe(true);
    const row = await ctx.db.prisma.auditEvent.findFirstOrThrow({ where: { action: "lab.orders.list" }, orderBy: { id: "desc" } });
    expect([row.actorId, row.patientId, row.outcome]).toEqual([caregiverId, minorId, "ok"]);
  });

  it("opens the minor's report PDF from the link the list gave, audited as the caregiver's read of his data", async () => {
    const orders = (await labOrders(caregiver, actingFor(minorId))).json().payload as Array<{ urlPDF: string | null }>;
    const link = orders.find((order) => order.urlPDF)!.urlPDF!;
    const response = await ctx.app.inject({ method: "GET", url: link });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("application/pdf");
    const row = await ctx.db.prisma.auditEvent.findFirstOrThrow({ where: { action: "results.report.read" }, orderBy: { id: "desc" } });
    expect([row.actorId, row.patientId]).toEqual([caregiverId, minorId]);
  });

  it("reads the adult's imaging studies over tRPC with the same header", async () => {
    const input = encodeURIComponent(JSON.stringify({ dateFrom: "", dateTo: "" }));
    const response = await ctx.app.inject({
      method: "GET",
      url: `/trpc/imaging.studies?input=${input}`,
      headers: { ...bearer(caregiver), ...actingFor(adultId) },
    });
    expect(response.statusCode).toBe(200);
    const row = await ctx.db.prisma.auditEvent.findFirstOrThrow({ where: { action: "imaging.studies.list" }, orderBy: { id: "desc" } });
    expect([row.actorId, row.patientId]).toEqual([caregiverId, adultId]);
  });

  it("names the patient the scheduling page books for, and audits opening it for a dependent", async () => {
    const response = await get("/scheduling/patient", caregiver, actingFor(adultId));
    expect(response.statusCode).toBe(200);
    expect(response.json().payload).toEqual({ id: adultId, rut: "6.543.210-2", name: "José González" });
    const row = await ctx.db.prisma.auditEvent.findFirstOrThrow({ where: { action: "scheduling.open" }, orderBy: { id: "desc" } });
    expect([row.actorId, row.patientId]).toEqual([caregiverId, adultId]);
    expect((await get("/scheduling/patient", caregiver)).json().payload.rut).toBe("12.345.678-5");
  });

  it("lists and pays the minor's bill: the payment is the minor's, recorded as made by the caregiver", async () => {
    const list = await get(`/files/accounts/${demoDependents.minor.rut}`, caregiver, actingFor(minorId));
    expect(list.statusCode).toBe(200);
    const accounts = list.json().accounts as Array<{ id: number; isPaid: boolean }>;
    expect(accounts).toHaveLength(2);
    const unpaid = accounts.find((bill) => !bill.isPaid)!;
    const start = await ctx.app.inject({
      method: "POST",
      url: api("/payment/generate-transaction-new-prod"),
      headers: { ...bearer(caregiver), ...actingFor(minorId) },
      payload: { accountId: unpaid.id },
    });
    expect(start.statusCode).toBe(200);
    const transaction = await ctx.db.prisma.paymentTransaction.findFirstOrThrow({ where: { billId: unpaid.id } });
    expect([transaction.userId, transaction.payerId]).toEqual([minorId, caregiverId]);
    const row = await ctx.db.prisma.auditEvent.findFirstOrThrow({ where: { action: "payment.start" }, orderBy: { id: "desc" } });
    expect([row.actorId, row.patientId, row.outcome]).toEqual([caregiverId, minorId, "ok"]);
    // Without the header the same bill is someone else's: 404, as for any other patient's bill.
    const own = await ctx.app.inject({
      method: "POST",
      url: api("/payment/generate-transaction-new-prod"),
      headers: bearer(caregiver),
      payload: { accountId: unpaid.id },
    });
    expect(own.statusCode).toBe(404);
  });

  it("lists the minor's bills over tRPC (bills.mine) reading the caregiver link once, not once per layer", async () => {
    const input = encodeURIComponent(JSON.stringify({ page: 1, limit: 10 }));
    const response = await ctx.app.inject({
      method: "GET",
      url: `/trpc/bills.mine?input=${input}`,
      headers: { ...bearer(caregiver), ...actingFor(minorId) },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().result.data.accounts).toHaveLength(2);
    // The service itself, on a client that counts the link lookups (the route's own are the same call).
    let lookups = 0;
    const prisma = ctx.app.deps.prisma;
    const counted = new Proxy(prisma, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key);
        if (key !== "caregiverLink") return typeof value === "function" ? value.bind(target) : value;
        const links = target.caregiverLink;
        return {
          findFirst: (...args: Parameters<typeof links.findFirst>) => {
            lookups += 1;
            return links.findFirst(...args);
          },
        };
      },
    });
    const user = await prisma.user.findUniqueOrThrow({ where: { id: caregiverId }, select: sessionUserSelect });
    const page = await listOwnBills(
      { ...ctx.app.deps, prisma: counted },
      user,
      { page: 1, limit: 10 },
      { ip: "127.0.0.1", actingFor: String(minorId) },
    );
    expect([page.total, lookups]).toEqual([2, 1]);
  });

  it("refuses a part the link does not cover (the adult's bills) with 403, audited as denied for the adult", async () => {
    const response = await get(`/files/accounts/${demoDependents.adult.rut}`, caregiver, actingFor(adultId));
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe(caregiverMessages.notLinked);
    const row = await ctx.db.prisma.auditEvent.findFirstOrThrow({
      where: { action: "bill.list", outcome: "denied" },
      orderBy: { id: "desc" },
    });
    expect([row.actorId, row.patientId]).toEqual([caregiverId, adultId]);
  });

  it("refuses someone she does not care for, and answers 400 to a header that is not an id", async () => {
    const stranger = await idOf(demo.incomplete.rut);
    expect((await labOrders(caregiver, actingFor(stranger))).statusCode).toBe(403);
    const bad = await labOrders(caregiver, { [ACTING_FOR_HEADER]: "1 OR 1=1" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(caregiverMessages.badActingFor);
    expect((await labOrders(caregiver, { [ACTING_FOR_HEADER]: "99999999999" })).statusCode).toBe(400);
  });

  it("staff cannot use the header: results stay patients' only (403)", async () => {
    expect((await labOrders(executive, actingFor(minorId))).statusCode).toBe(403);
  });
});

describe("staff create, renew and revoke links on the dependent's edit page ('Cuidadores')", () => {
  const body = (overrides: object = {}) => ({
    caregiverRut: demo.incomplete.rut,
    relationship: "otro",
    documentSeen: "Poder notarial N° 4567",
    parts: ["resultados"],
    expiresOn: inDays(30),
    ...overrides,
  });
  const create = (token: string, dependentId: number, payload: object) =>
    ctx.app.inject({ method: "POST", url: api(`/admin/users/${dependentId}/caregivers`), headers: bearer(token), payload });

  it("an executive of the dependent's clinic creates a link; it is listed and audited with the dependent as patient", async () => {
    const response = await create(executive, adultId, body());
    expect(response.statusCode).toBe(200);
    const link = response.json().payload;
    expect(link).toMatchObject({
      relationship: "otro",
      parts: ["resultados"],
      state: "vigente",
      revocableByDependent: true,
      minorUntil: null,
    });
    expect(link.caregiver.rut).toBe("16.789.012-1");
    const list = await get(`/admin/users/${adultId}/caregivers`, executive);
    expect(list.json().payload.map((row: { id: number }) => row.id)).toContain(link.id);
    const row = await ctx.db.prisma.auditEvent.findFirstOrThrow({ where: { action: "caregiver.create" }, orderBy: { id: "desc" } });
    expect(row.patientId).toBe(adultId);
    // The new caregiver can read the adult's results now.
    const pedro = await ctx.login(demo.incomplete.rut, demo.incomplete.password);
    expect((await labOrders(pedro, actingFor(adultId))).statusCode).toBe(200);
    expect((await create(executive, adultId, body())).statusCode).toBe(409);
  });

  it("refuses bad input with a Spanish message and stores nothing", async () => {
    const before = await ctx.db.prisma.caregiverLink.count();
    const cases: Array<[object, string]> = [
      [{ parts: [] }, caregiverMessages.partsRequired],
      [{ parts: ["todo"] }, caregiverMessages.partsRequired],
      [{ relationship: "vecino" }, caregiverMessages.relationshipRequired],
      [{ documentSeen: "" }, caregiverMessages.documentRequired],
      [{ expiresOn: inDays(-1) }, caregiverMessages.expiresInPast],
      [{ expiresOn: "31-12-2030" }, caregiverMessages.expiresRequired],
      [{ expiresOn: "2030-13-45" }, caregiverMessages.notACalendarDay],
      [{ expiresOn: "2027-02-31" }, caregiverMessages.notACalendarDay],
      [{ expiresOn: inDays(400) }, caregiverMessages.adultAtMostOneYear],
      [{ minor: true, minorUntil: "2030-99-01" }, caregiverMessages.notACalendarDay],
      [{ caregiverRut: "99.999.999-9" }, caregiverMessages.caregiverNotFound],
      // An empty RUT is missing, not unknown (issue 45).
      [{ caregiverRut: "" }, "Ingrese el RUT del cuidador, por ejemplo 12.345.678-5"],
      [{ caregiverRut: "   " }, "Ingrese el RUT del cuidador, por ejemplo 12.345.678-5"],
      [{ caregiverRut: demoDependents.adult.rut }, caregiverMessages.samePerson],
      // The minor turns 18 on 2032-06-12 (his birth date on file): a first link cannot outlast that.
    ];
    for (const [overrides, message] of cases) {
      const response = await create(admin, adultId, body(overrides));
      expect(response.statusCode, JSON.stringify(overrides)).toBe(400);
      expect(response.json().message).toBe(message);
    }
    const minor = await create(admin, minorId, body({ expiresOn: "2032-06-13" }));
    expect(minor.json().message).toBe(caregiverMessages.expiresAfterEighteen);
    expect(await ctx.db.prisma.caregiverLink.count()).toBe(before);
  });

  it("asks when a dependent without a birth date on file turns 18, and keeps it for the minor's rule", async () => {
    const fresh = await ctx.db.prisma.user.findFirstOrThrow({
      where: { roleType: 2, birthDate: null, rut: { not: normalizeRut(demo.incomplete.rut) } },
    });
    await ctx.db.prisma.patientClinic.upsert({
      where: { userId_codeClinicStr: { userId: fresh.id, codeClinicStr: "hcs-rcr" } },
      create: { userId: fresh.id, codeClinicStr: "hcs-rcr" },
      update: {},
    });
    const missing = await create(admin, fresh.id, body({ caregiverRut: demo.patient.rut, minor: true }));
    expect(missing.json().message).toBe(caregiverMessages.minorUntilRequired);
    const created = await create(
      admin,
      fresh.id,
      body({ caregiverRut: demo.patient.rut, minor: true, minorUntil: inDays(10), expiresOn: inDays(10), relationship: "madre" }),
    );
    expect(created.statusCode).toBe(200);
    expect(created.json().payload).toMatchObject({ minorUntil: inDays(10), revocableByDependent: false });
  });

  it("an executive cannot see or link a patient outside their clinics (404, as a missing one); a patient gets 403", async () => {
    const executiveClinics = ["hcs-rcr", "maitenes"];
    const outside = await ctx.db.prisma.user.findFirstOrThrow({
      where: { roleType: 2, patientClinics: { every: { codeClinicStr: { notIn: executiveClinics } }, some: {} } },
    });
    expect((await create(executive, outside.id, body())).statusCode).toBe(404);
    expect((await get(`/admin/users/${outside.id}/caregivers`, executive)).statusCode).toBe(404);
    expect((await create(caregiver, adultId, body())).statusCode).toBe(403);
  });

  it("revoking stops the link at once, on this instance and on another one", async () => {
    const other = await secondInstance(ctx);
    try {
      const link = await linkBetween(adultId);
      const viaOther = () =>
        other.app.inject({ method: "GET", url: api("/orders"), headers: { ...bearer(caregiver), ...actingFor(adultId) } });
      expect((await viaOther()).statusCode).toBe(200);
      const revoked = await ctx.app.inject({ method: "DELETE", url: api(`/admin/caregivers/${link.id}`), headers: bearer(executive) });
      expect(revoked.statusCode).toBe(200);
      expect(revoked.json().payload.state).toBe("revocado");
      expect((await viaOther()).statusCode).toBe(403);
      expect((await labOrders(caregiver, actingFor(adultId))).statusCode).toBe(403);
      const again = await ctx.app.inject({ method: "DELETE", url: api(`/admin/caregivers/${link.id}`), headers: bearer(executive) });
      expect(again.statusCode).toBe(409);
      // Linked again for the next tests (a revoked link is never revived: staff make a new one).
      const recreated = await create(
        executive,
        adultId,
        body({ caregiverRut: demo.patient.rut, parts: ["agendamiento", "resultados"], expiresOn: inDays(300) }),
      );
      expect(recreated.statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it("an expired link is refused; renewing it with a later date opens it again", async () => {
    const link = await linkBetween(minorId);
    await ctx.db.prisma.caregiverLink.update({ where: { id: link.id }, data: { expiresOn: dayToDate(inDays(-1)) } });
    expect((await labOrders(caregiver, actingFor(minorId))).statusCode).toBe(403);
    const mine = (await get("/caregivers/mine", caregiver)).json().payload;
    expect(mine.dependents.map((row: { dependent: { id: number } }) => row.dependent.id)).not.toContain(minorId);
    const renew = (expiresOn: string) =>
      ctx.app.inject({ method: "PUT", url: api(`/admin/caregivers/${link.id}`), headers: bearer(admin), payload: { expiresOn } });
    expect((await renew(inDays(-2))).statusCode).toBe(400);
    const renewed = await renew("2033-01-31");
    expect(renewed.statusCode).toBe(200);
    expect(renewed.json().payload).toMatchObject({ expiresOn: "2033-01-31", state: "vigente" });
    expect((await labOrders(caregiver, actingFor(minorId))).statusCode).toBe(200);
  });
});

describe("the dependent's own account ('Mi cuenta')", () => {
  it("the adult sees who cares for him and revokes the link; the caregiver is refused at once", async () => {
    const jose = await ctx.login(demoDependents.adult.rut, demoDependents.adult.password);
    const mine = (await get("/caregivers/mine", jose)).json().payload;
    const link = mine.caregivers.find((row: { caregiver: { id: number } }) => row.caregiver.id === caregiverId);
    expect(link).toMatchObject({ revocableByDependent: true, state: "vigente" });
    expect((await labOrders(caregiver, actingFor(adultId))).statusCode).toBe(200);
    const revoke = await ctx.app.inject({ method: "DELETE", url: api(`/caregivers/mine/${link.id}`), headers: bearer(jose) });
    expect(revoke.statusCode).toBe(200);
    expect((await labOrders(caregiver, actingFor(adultId))).statusCode).toBe(403);
    const row = await ctx.db.prisma.auditEvent.findFirstOrThrow({ where: { action: "caregiver.revoke" }, orderBy: { id: "desc" } });
    expect([row.actorId, row.patientId]).toEqual([adultId, adultId]);
    // Someone else's link answers like a missing one.
    const minorsLink = await linkBetween(minorId);
    expect(
      (await ctx.app.inject({ method: "DELETE", url: api(`/caregivers/mine/${minorsLink.id}`), headers: bearer(jose) })).statusCode,
    ).toBe(404);
  });

  it("a minor cannot revoke a parent's or legal guardian's link (403); staff can", async () => {
    const pedroId = await idOf(demo.incomplete.rut);
    const link = await ctx.db.prisma.caregiverLink.create({
      data: {
        caregiverId,
        dependentId: pedroId,
        relationship: "tutor-legal",
        documentSeen: "Resolución del tribunal de familia",
        minorUntil: dayToDate(inDays(200)),
        expiresOn: dayToDate(inDays(200)),
        parts: ["resultados"],
        createdById: caregiverId,
      },
    });
    const pedro = await ctx.login(demo.incomplete.rut, demo.incomplete.password);
    const refused = await ctx.app.inject({ method: "DELETE", url: api(`/caregivers/mine/${link.id}`), headers: bearer(pedro) });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(caregiverMessages.guardianOfMinor);
    expect((await labOrders(caregiver, actingFor(pedroId))).statusCode).toBe(200);
    const byStaff = await ctx.app.inject({ method: "DELETE", url: api(`/admin/caregivers/${link.id}`), headers: bearer(executive) });
    expect(byStaff.statusCode).toBe(200);
  });
});
