import { normalizeRut } from "../../../server/contract/rut.ts";
import { bearer, createTestContext, demo, type TestContext } from "../../helpers/test-app.ts";
import type { Endpoint, Role } from "./endpoints.ts";
import { fillPath } from "./endpoints.ts";

export interface SecurityContext {
  ctx: TestContext;
  tokens: Record<Exclude<Role, "none">, string>;
  /** Ids each role may not see: another patient for a patient, the admin for the executive (outside its clinics). */
  othersId: Record<Role, number>;
  /** Bills each role may not see: another patient's for a patient, one of a clinic the executive does not hold. */
  othersBillId: Record<Role, number>;
  call(
    endpoint: Endpoint,
    role: Role,
    options?: {
      id?: number | string;
      body?: unknown;
      rawBody?: string;
      contentType?: string;
      token?: string;
      headers?: Record<string, string>;
    },
  ): Promise<Answer>;
  /** The same call as a patient would make it, signed in with `token` (another patient's session, e.g. a first login). */
  callAs(endpoint: Endpoint, token: string): Promise<Answer>;
}

export interface Answer {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}

/** Whether the endpoint's id is a bill's (REST :accountId, tRPC bills.*) rather than a user's. */
const addressesBill = (endpoint: Endpoint) => /account/i.test(endpoint.path) || endpoint.path.startsWith("bills.");
/** Whether the endpoint's id is a caregiver link's (REST :linkId, issue 30). */
const addressesCaregiverLink = (endpoint: Endpoint) => /:linkId\b/.test(endpoint.path);

/** A portal over a fresh demo database, signed in as each role, with one call for every kind of endpoint. */
export async function createSecurityContext(overrides: Parameters<typeof createTestContext>[0] = {}): Promise<SecurityContext> {
  // The matrices ask for others' data over and over on purpose: the per-account limit of such refusals has its own test.
  const ctx = await createTestContext({ LOGIN_MAX_FAILURES_PER_IP: "100000", REFUSED_ACCESS_MAX_PER_ACCOUNT: "100000", ...overrides });
  const freshLogin = (role: Exclude<Role, "none">) =>
    role === "patient" ? ctx.login(demo.patient.rut, demo.patient.password) : ctx.login(demo[role].rut, demo[role].password, "staff");
  const tokens = {
    patient: await freshLogin("patient"),
    executive: await freshLogin("executive"),
    admin: await freshLogin("admin"),
  };
  const idOf = async (rut: string) => (await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: normalizeRut(rut) } })).id;
  const admin = await idOf(demo.admin.rut);
  const otherPatient = await idOf(demo.incomplete.rut);
  const othersId: Record<Role, number> = { none: otherPatient, patient: otherPatient, executive: admin, admin: otherPatient };
  const patientId = await idOf(demo.patient.rut);
  const executiveClinics = (
    await ctx.db.prisma.privilege.findMany({ where: { userId: await idOf(demo.executive.rut) }, select: { codeClinicStr: true } })
  ).map((privilege) => privilege.codeClinicStr);
  const billOf = async (where: object) => (await ctx.db.prisma.bill.findFirstOrThrow({ where, select: { id: true } })).id;
  const otherPatientsBill = await billOf({ userId: { not: patientId } });
  const farClinicBill = await billOf({ clinicCode: { notIn: executiveClinics } });
  const othersBillId: Record<Role, number> = {
    none: otherPatientsBill,
    patient: otherPatientsBill,
    executive: farClinicBill,
    admin: otherPatientsBill,
  };

  // A caregiver link nobody but an admin may touch: between two patients of a clinic the executive does not hold, and
  // not the demo patient's.
  const farPatients = await ctx.db.prisma.user.findMany({
    where: { roleType: 2, id: { not: patientId }, patientClinics: { some: {}, every: { codeClinicStr: { notIn: executiveClinics } } } },
    select: { id: true },
    take: 2,
    orderBy: { id: "asc" },
  });
  const farLink = await ctx.db.prisma.caregiverLink.create({
    data: {
      caregiverId: farPatients[0]!.id,
      dependentId: farPatients[1]!.id,
      relationship: "otro",
      documentSeen: "Poder simple",
      parts: ["resultados"],
      expiresOn: new Date("2030-12-31T00:00:00Z"),
      createdById: admin,
    },
  });

  async function call(
    endpoint: Endpoint,
    role: Role,
    options: {
      id?: number | string;
      body?: unknown;
      rawBody?: string;
      contentType?: string;
      token?: string;
      headers?: Record<string, string>;
    } = {},
  ) {
    // Logging out ends the session of the token it is called with: give it a session of its own.
    const endsSession = /logout/.test(endpoint.path);
    const token = options.token ?? (role === "none" ? undefined : endsSession ? await freshLogin(role) : tokens[role]);
    const headers: Record<string, string> = { ...(token ? bearer(token) : {}), ...options.headers };
    const id = options.id ?? (addressesCaregiverLink(endpoint) ? farLink.id : (addressesBill(endpoint) ? othersBillId : othersId)[role]);
    const body = options.body ?? (endpoint.fields.includes("id") ? { id } : {});
    if (options.contentType) headers["content-type"] = options.contentType;
    const payload = options.rawBody ?? (endpoint.method === "GET" ? undefined : JSON.stringify(body));
    if (payload !== undefined && !headers["content-type"]) headers["content-type"] = "application/json";
    let url: string;
    if (endpoint.kind === "rest") {
      url = fillPath(endpoint.path, id);
    } else {
      url = `/trpc/${endpoint.path}`;
      if (endpoint.method === "GET") url += `?input=${encodeURIComponent(options.rawBody ?? JSON.stringify(body))}`;
    }
    const response = await ctx.app.inject({
      method: endpoint.method as "GET",
      url,
      headers,
      payload: endpoint.method === "GET" ? undefined : payload,
    });
    return { statusCode: response.statusCode, body: response.body, headers: response.headers };
  }
  return { ctx, tokens, othersId, othersBillId, call, callAs: (endpoint, token) => call(endpoint, "patient", { token }) };
}
