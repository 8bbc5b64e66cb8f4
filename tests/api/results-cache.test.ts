import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../../server/app.ts";
import { openDatabase } from "../../server/db/database.ts";
import { ACTING_FOR_HEADER } from "../../server/contract/caregivers.ts";
import { demoDependents } from "../../server/db/seed-caregivers.ts";
import { appRouter } from "../../server/trpc/router.ts";
import { createContextInner } from "../../server/trpc/context.ts";
import { createCallerFactory } from "../../server/trpc/trpc.ts";
import { userIdByRut } from "../helpers/fixtures.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// Issue 26: the laboratory's and the PACS's answer to a patient's results list is kept RESULTS_CACHE_SECONDS (60 by
// default) per patient and dates; 'Actualizar' (REST actualizar=true, tRPC refresh) asks again. The providers are the
// mocks' switchable ones (/fallas/control), which count the requests they receive: that count is what is asserted.

let ctx: TestContext;
let patient: string;
let adult: string;
let patientId: number;
let adultId: number;
beforeAll(async () => {
  ctx = await createTestContext({
    LAB_FHIR_BASE_URL: "{mocks}/fallas/control/fhir",
    IMAGING_DICOMWEB_BASE_URL: "{mocks}/fallas/control/dicom-web",
  });
  [patient, adult] = await Promise.all([
    ctx.login(demo.patient.rut, demo.patient.password),
    ctx.login(demoDependents.adult.rut, demoDependents.adult.password),
  ]);
  [patientId, adultId] = await Promise.all([
    userIdByRut(ctx.db.prisma, demo.patient.rut),
    userIdByRut(ctx.db.prisma, demoDependents.adult.rut),
  ]);
});
afterAll(() => ctx.close());

const providerRequests = async () => ((await (await fetch(`${ctx.mocksUrl}/fallas/control`)).json()) as { requests: number }).requests;
const setProvider = async (modo: "normal" | "caida") => {
  expect((await fetch(`${ctx.mocksUrl}/fallas/control?modo=${modo}`, { method: "PUT" })).status).toBe(200);
};
/** The provider requests `read` caused. */
async function requestsOf(read: () => Promise<unknown>): Promise<number> {
  const before = await providerRequests();
  await read();
  return (await providerRequests()) - before;
}

const lists = [
  { name: "laboratory orders", path: "/orders", from: "fecha_inicio", to: "fecha_termino", procedure: "laboratory.orders" },
  { name: "imaging studies", path: "/orders-imaging", from: "dateFrom", to: "dateTo", procedure: "imaging.studies" },
] as const;

type ListSpec = (typeof lists)[number];
/** A REST read of the list on its own dates (each test its own, so no test sees another's kept answer). */
const restRead = (app: FastifyInstance, list: ListSpec, token: string, year: number, extra = "", headers: Record<string, string> = {}) =>
  app.inject({
    method: "GET",
    url: api(`${list.path}?${list.from}=01/01/${year}&${list.to}=31/12/2099${extra}`),
    headers: { ...bearer(token), ...headers },
  });
const rowsOf = (response: { json(): unknown }) =>
  ((response.json() as { payload: Array<{ orderNumber?: string; accessionNumber?: string }> }).payload ?? []).map(
    (row) => row.orderNumber ?? row.accessionNumber,
  );

describe.each(lists)("the $name list keeps the provider's answer per patient and dates", (list) => {
  const read = (token: string, year: number, extra = "", headers: Record<string, string> = {}) =>
    restRead(ctx.app, list, token, year, extra, headers);

  it("two reads within RESULTS_CACHE_SECONDS reach the provider once, and both are audited", async () => {
    const audits = () =>
      ctx.db.prisma.auditEvent.count({ where: { patientId, action: { in: ["lab.orders.list", "imaging.studies.list"] } } });
    const auditsBefore = await audits();
    let first!: Awaited<ReturnType<typeof read>>;
    let second!: Awaited<ReturnType<typeof read>>;
    expect(await requestsOf(async () => (first = await read(patient, 2001)))).toBeGreaterThan(0);
    expect(await requestsOf(async () => (second = await read(patient, 2001)))).toBe(0);
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(rowsOf(second)).toEqual(rowsOf(first));
    expect(rowsOf(first).length).toBeGreaterThan(0);
    // 'Accesos a mis datos' and the audit record every read, also one the kept answer served.
    expect((await audits()) - auditsBefore).toBe(2);
    // Other dates are another search: the provider is asked.
    expect(await requestsOf(() => read(patient, 2002))).toBeGreaterThan(0);
  });

  it("actualizar=true asks the provider again and keeps its fresh answer; a bad value is refused in Spanish", async () => {
    await read(patient, 2003);
    expect(await requestsOf(() => read(patient, 2003, "&actualizar=true"))).toBe(1);
    expect(await requestsOf(() => read(patient, 2003, "&actualizar=false"))).toBe(0);
    expect(await requestsOf(() => read(patient, 2003))).toBe(0);
    const bad = await read(patient, 2003, "&actualizar=si");
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe("El parámetro actualizar debe ser true o false");
  });

  it("tRPC refresh: true asks the provider again; without it the kept answer serves", async () => {
    const caller = createCallerFactory(appRouter)(createContextInner(ctx.app.deps, { ip: "10.0.0.9" }, `Bearer ${patient}`));
    const call = (refresh?: boolean) => {
      const input = { [list.from]: "01/01/2004", [list.to]: "31/12/2099", ...(refresh === undefined ? {} : { refresh }) };
      return list.procedure === "laboratory.orders"
        ? caller.laboratory.orders(input as { fecha_inicio: string; fecha_termino: string })
        : caller.imaging.studies(input as { dateFrom: string; dateTo: string });
    };
    await call();
    expect(await requestsOf(() => call())).toBe(0);
    expect(await requestsOf(() => call(false))).toBe(0);
    expect(await requestsOf(() => call(true))).toBe(1);
    expect(await requestsOf(() => call())).toBe(0);
  });

  it("another patient's read of the same dates is not served from the first patient's answer", async () => {
    const mine = await read(patient, 2005);
    let theirs!: Awaited<ReturnType<typeof read>>;
    expect(await requestsOf(async () => (theirs = await read(adult, 2005)))).toBeGreaterThan(0);
    expect(theirs.statusCode).toBe(200);
    const own = (rows: Array<string | undefined>, rutBody: string) => rows.every((row) => row?.includes(rutBody));
    expect(rowsOf(theirs).length).toBeGreaterThan(0);
    expect(own(rowsOf(theirs), "6543210")).toBe(true);
    expect(own(rowsOf(mine), "12345678")).toBe(true);
    // The caregiver acting for him reads his data (his kept answer: the key is the patient), never her own.
    const actingForHim = await read(patient, 2005, "", { [ACTING_FOR_HEADER]: String(adultId) });
    expect(rowsOf(actingForHim)).toEqual(rowsOf(theirs));
  });

  it("the access check runs before the kept answer: a caregiver whose link lapsed is refused although his answer is kept", async () => {
    await read(adult, 2006);
    const link = await ctx.db.prisma.caregiverLink.findFirstOrThrow({
      where: { caregiverId: patientId, dependentId: adultId },
      orderBy: { id: "desc" },
    });
    const actingForHim = () => read(patient, 2006, "", { [ACTING_FOR_HEADER]: String(adultId) });
    expect((await actingForHim()).statusCode).toBe(200);
    await ctx.db.prisma.caregiverLink.update({ where: { id: link.id }, data: { revokedAt: new Date() } });
    try {
      expect((await actingForHim()).statusCode).toBe(403);
    } finally {
      await ctx.db.prisma.caregiverLink.update({ where: { id: link.id }, data: { revokedAt: null } });
    }
  });

  it("a provider error is not kept: the next read asks again and then keeps the good answer", async () => {
    await setProvider("caida");
    try {
      expect((await read(patient, 2007)).statusCode).toBe(502);
    } finally {
      await setProvider("normal");
    }
    let again!: Awaited<ReturnType<typeof read>>;
    expect(await requestsOf(async () => (again = await read(patient, 2007)))).toBeGreaterThan(0);
    expect(again.statusCode).toBe(200);
    expect(await requestsOf(() => read(patient, 2007))).toBe(0);
  });
});

describe("RESULTS_CACHE_SECONDS=0 keeps nothing", () => {
  let app: FastifyInstance;
  let closeDb: () => Promise<void>;
  beforeAll(async () => {
    const db = ctx.db.target.kind === "postgres" ? await openDatabase(ctx.db.target) : ctx.db;
    closeDb = async () => {
      if (db !== ctx.db) await db.close();
    };
    app = await buildApp({ config: { ...ctx.config, RESULTS_CACHE_SECONDS: 0 }, db, logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await closeDb();
  });

  it.each(lists)("every read of the $name list asks the provider", async (list) => {
    await restRead(app, list, patient, 2008);
    expect(await requestsOf(() => restRead(app, list, patient, 2008))).toBeGreaterThan(0);
    expect(await requestsOf(() => restRead(app, list, patient, 2008))).toBeGreaterThan(0);
  });
});
