import type { LightMyRequestResponse } from "fastify";
import { ACTING_FOR_HEADER } from "../../../server/contract/caregivers.ts";
import { dayToDate } from "../../../server/contract/days.ts";
import { Role } from "../../../server/contract/roles.ts";
import { setSecondFactor } from "../../../server/db/users.repository.ts";
import { chileToday } from "../../../server/lib/chile-time.ts";
import { createBill, insertUser, plainRutOf } from "../../helpers/fixtures.ts";
import { multipartBody, pdfBytes } from "../../helpers/multipart.ts";
import { payAtForm, testCards } from "../../helpers/payments-fixtures.ts";
import { fixtureTotpSecret } from "../../helpers/second-factor.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../../helpers/test-app.ts";
import type { Endpoint } from "./endpoints.ts";

// The people and data of the access-log tests (issue 42): one patient whose data everyone else reads and changes,
// staff who may reach her (an admin, and an executive of her clinic), and a caregiver with a live link covering every
// part. Everything a call needs (bills, files, payments, links, requests) is made fresh for it, so calls that change or
// delete something can run for each actor.

export type Actor = "admin" | "executive" | "caregiver";

export interface World {
  ctx: TestContext;
  ids: { admin: number; executive: number; patient: number; caregiver: number };
  /** The patient's RUT as stored ("30200001-K"). */
  patientRut: string;
  tokens: Record<Actor | "patient", string>;
  /** Headers of a call by the actor: the caregiver names the patient in X-Actuar-Por (REST and tRPC alike). */
  headersOf(actor: Actor, options?: { actingFor?: boolean }): Record<string, string>;
  /** A REST call of the contract (`path` under /api/rcr/v1, or a link the portal gave, already absolute). */
  rest(
    method: string,
    path: string,
    actor: Actor | "patient",
    options?: { payload?: unknown; actingFor?: boolean },
  ): Promise<LightMyRequestResponse>;
  bill(): Promise<number>;
  billWithFile(): Promise<{ billId: number; path: string }>;
  /** A bill of the patient paid by card at the Webpay mock, by the patient herself. */
  paidBill(): Promise<{ billId: number; buyOrder: string }>;
  /** A payment of a fresh bill started by the caregiver for the patient and paid at the mock, not yet committed. */
  caregiverPaidAtForm(): Promise<string>;
  /** Another patient of the same clinic, made for one call (a password reset, a second-factor reset, a new link). */
  anotherPatient(options?: { secondFactor?: boolean }): Promise<{ id: number; rut: string }>;
  /** A rights request ('rectificación') of the patient, received and open. */
  rightsRequest(): Promise<number>;
  /** A live caregiver link of the patient (as dependent) with another patient, for renewing or revoking. */
  caregiverLink(): Promise<number>;
  /** A day some weeks ahead (YYYY-MM-DD), for link end dates. */
  daysAhead(days: number): string;
  lab: { orderNumber: string; code: string };
  imaging: { accessionNumber: string };
  close(): Promise<void>;
}

let nextBody = 30_200_000;

export async function createWorld(): Promise<World> {
  // Many refusals and reads happen here on purpose; the limits are tested on their own (access-refusals.test.ts).
  const ctx = await createTestContext({ LOGIN_MAX_FAILURES_PER_IP: "100000", REFUSED_ACCESS_MAX_PER_ACCOUNT: "100000" });
  const prisma = ctx.db.prisma;
  const idOf = async (rut: string) => (await prisma.user.findUniqueOrThrow({ where: { rut } })).id;
  const newPatient = async (firstName: string, lastName: string) => {
    const body = ++nextBody;
    const rut = plainRutOf(body);
    const id = await insertUser(prisma, {
      rut,
      email: `paciente${body}@correo.cl`,
      roleType: Role.patient,
      password: "Paciente2026",
      firstName,
      lastName,
      patientClinics: ["hcs-rcr"],
    });
    return { id, rut };
  };
  const patient = await newPatient("Paula", "Sujeto");
  await prisma.user.update({ where: { id: patient.id }, data: { birthDate: dayToDate("1980-05-17") } });
  const caregiver = await newPatient("Camila", "Cuidadora");
  const ids = {
    admin: await idOf("11111111-1"),
    executive: await idOf("22222222-2"),
    patient: patient.id,
    caregiver: caregiver.id,
  };
  const daysAhead = (days: number) => {
    const day = dayToDate(chileToday());
    day.setUTCDate(day.getUTCDate() + days);
    return day.toISOString().slice(0, 10);
  };
  const linkFor = (caregiverId: number) =>
    prisma.caregiverLink.create({
      data: {
        caregiverId,
        dependentId: patient.id,
        relationship: "otro",
        documentSeen: "Poder simple",
        parts: ["agendamiento", "resultados", "cuentas-pagos"],
        expiresOn: dayToDate(daysAhead(365)),
        createdById: ids.admin,
      },
    });
  await linkFor(caregiver.id);
  const tokens = {
    admin: await ctx.login(demo.admin.rut, demo.admin.password, "staff"),
    executive: await ctx.login(demo.executive.rut, demo.executive.password, "staff"),
    caregiver: await ctx.login(caregiver.rut, "Paciente2026"),
    patient: await ctx.login(patient.rut, "Paciente2026"),
  };
  const headersOf = (actor: Actor | "patient", options: { actingFor?: boolean } = {}) => ({
    ...bearer(tokens[actor]),
    ...(actor === "caregiver" && options.actingFor !== false ? { [ACTING_FOR_HEADER]: String(patient.id) } : {}),
  });
  const rest: World["rest"] = (method, path, actor, options = {}) =>
    ctx.app.inject({
      method: method as "GET",
      url: path.startsWith("/api/") ? path : api(path),
      headers: headersOf(actor, options),
      ...(options.payload === undefined ? {} : { payload: options.payload as object }),
    });
  const ok = (response: LightMyRequestResponse, what: string) => {
    if (response.statusCode !== 200) throw new Error(`${what}: ${response.statusCode} ${response.body.slice(0, 200)}`);
    return response.json().payload;
  };
  const startPayment = async (billId: number, actor: "patient" | "caregiver") =>
    (
      ok(
        await rest("POST", "/payment/generate-transaction-new-prod", actor, {
          payload: { accountId: billId, rcrLink: "http://clinicasur.localhost:4200", clinicCode: "hcs-rcr" },
        }),
        "payment start",
      ) as { token: string }
    ).token;
  const bill = async () => (await createBill(prisma, patient.rut, { amount: 45_990 })).id;

  // What the caregiver's result calls read: one order with a report and an analyte, one study with a report.
  const orders = ok(await rest("GET", "/orders", "caregiver"), "lab orders") as Array<{ orderNumber: string; urlPDF: string | null }>;
  const withReport = orders.find((order) => order.urlPDF) ?? orders[0]!;
  const detail = ok(await rest("GET", `/orders/${withReport.orderNumber}`, "caregiver"), "lab order") as {
    listPrestaciones: Array<{ code: string | null; value: number | null }> | null;
  };
  const studies = ok(await rest("GET", "/orders-imaging", "caregiver"), "imaging") as Array<{
    accessionNumber: string;
    hasReport: boolean;
  }>;

  return {
    ctx,
    ids,
    patientRut: patient.rut,
    tokens,
    headersOf,
    rest,
    bill,
    async billWithFile() {
      const billId = await bill();
      const { payload, headers } = multipartBody({}, [{ name: "detalle.pdf", content: pdfBytes(2_000) }]);
      const stored = await ctx.app.inject({
        method: "POST",
        url: api(`/files/upload?accountId=${billId}`),
        payload,
        headers: { ...headers, ...bearer(tokens.admin) },
      });
      if (stored.statusCode !== 200) throw new Error(`upload: ${stored.statusCode} ${stored.body.slice(0, 200)}`);
      const { files } = stored.json() as { files: Array<{ path: string }> };
      return { billId, path: files[0]!.path };
    },
    async paidBill() {
      const billId = await bill();
      const token = await startPayment(billId, "patient");
      await payAtForm(ctx.mocksUrl, token, testCards.visaApproved);
      const committed = ok(await rest("GET", `/payment/new-commit-prod?token_ws=${token}`, "patient"), "commit") as { approved: boolean };
      if (!committed.approved) throw new Error("the payment was not approved");
      const { buyOrder } = await prisma.paymentTransaction.findUniqueOrThrow({ where: { token }, select: { buyOrder: true } });
      return { billId, buyOrder };
    },
    async caregiverPaidAtForm() {
      const token = await startPayment(await bill(), "caregiver");
      await payAtForm(ctx.mocksUrl, token, testCards.visaApproved);
      return token;
    },
    async anotherPatient(options = {}) {
      const other = await newPatient("Otro", "Paciente");
      if (options.secondFactor) await setSecondFactor(prisma, other.id, { totpSecret: fixtureTotpSecret, totpEnabledAt: new Date() });
      return other;
    },
    async rightsRequest() {
      const row = await prisma.rightsRequest.create({
        data: {
          userId: patient.id,
          kind: "rectification",
          field: "phoneNumber",
          correctValue: "+56987654321",
          dueAt: new Date(Date.now() + 30 * 86_400_000),
        },
      });
      return row.id;
    },
    async caregiverLink() {
      const other = await newPatient("Otra", "Cuidadora");
      return (await linkFor(other.id)).id;
    },
    daysAhead,
    lab: {
      orderNumber: withReport.orderNumber,
      code: detail.listPrestaciones?.find((procedure) => procedure.code && procedure.value !== null)?.code ?? "",
    },
    imaging: { accessionNumber: (studies.find((study) => study.hasReport) ?? studies[0]!).accessionNumber },
    close: () => ctx.close(),
  };
}

/** One call of an endpoint about the patient (or about another patient made for it), as an actor makes it. */
export interface PatientCall {
  /** REST: the address under /api/rcr/v1 (or a signed link as the portal gave it); tRPC: built from `input`. */
  path?: string;
  payload?: unknown;
  /** REST multipart upload: one PDF in the field `file`. */
  upload?: boolean;
  input?: unknown;
  /** Whether the caregiver names the patient in X-Actuar-Por (default true; false for links and returns that name her). */
  actingFor?: boolean;
  /** The patient the call is about, when not the world's patient (known before the call or found after it). */
  patientId?: number | (() => Promise<number>);
}

/** Sends the call as the actor: REST as described, tRPC as the web client does (GET ?input= or a POST of JSON). */
export async function send(world: World, endpoint: Endpoint, actor: Actor, call: PatientCall): Promise<LightMyRequestResponse> {
  const headers = world.headersOf(actor, { actingFor: call.actingFor });
  if (endpoint.kind === "trpc") {
    const input = JSON.stringify(call.input ?? {});
    return endpoint.method === "GET"
      ? world.ctx.app.inject({ method: "GET", url: `/trpc/${endpoint.path}?input=${encodeURIComponent(input)}`, headers })
      : world.ctx.app.inject({
          method: "POST",
          url: `/trpc/${endpoint.path}`,
          headers: { ...headers, "content-type": "application/json" },
          payload: input,
        });
  }
  const url = call.path!.startsWith("/api/") ? call.path! : api(call.path!);
  if (call.upload) {
    const { payload, headers: multipart } = multipartBody({}, [{ name: "anexo.pdf", content: pdfBytes(1_500) }]);
    return world.ctx.app.inject({ method: "POST", url, payload, headers: { ...headers, ...multipart } });
  }
  return world.ctx.app.inject({
    method: endpoint.method as "GET",
    url,
    headers,
    ...(call.payload === undefined ? {} : { payload: call.payload as object }),
  });
}
