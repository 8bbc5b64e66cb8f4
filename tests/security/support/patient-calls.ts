import { plainRutOf } from "../../helpers/fixtures.ts";
import type { Endpoint } from "./endpoints.ts";
import type { Actor, PatientCall, World } from "./patient-world.ts";

// How each endpoint that takes a patient is called about one patient, by someone other than that patient: staff
// (admin and executive of her clinic) and a caregiver through a live link. The access-log test (access-log.test.ts)
// finds the endpoints that take a patient in the route table and the router by themselves; one without an entry here
// (or a reason in notAboutAnotherPatient) fails it, so a new endpoint comes with the call that proves its audit row.

/** Input names through which an endpoint names a patient, or something of exactly one patient's. */
export const PATIENT_INPUTS = [
  "id",
  "userId",
  "id_user",
  "dependentId",
  "rut",
  "patient",
  "accountId",
  "path",
  "orderNumber",
  "accessionNumber",
  "code",
  "buyOrder",
  "buy_order",
  "token_ws",
  "token",
  "documentLink",
  "linkId",
] as const;

/** Whether the endpoint names a patient (or one patient's bill, file, order, payment, link) or acts for one (X-Actuar-Por). */
export const takesPatient = (endpoint: Endpoint): boolean =>
  endpoint.caregiverPart !== undefined || endpoint.inputs.some((name) => (PATIENT_INPUTS as readonly string[]).includes(name));

type Recipe = (world: World, actor: Actor) => Promise<PatientCall>;

const REST = "/api/rcr/v1";
const clinicLink = "http://clinicasur.localhost:4200";
let nextAccountCode = 7_300_000;
let nextRut = 30_900_000;
const newRut = () => plainRutOf(++nextRut);
const createdPatient = (world: World, rut: string) => async () =>
  (await world.ctx.db.prisma.user.findUniqueOrThrow({ where: { rut }, select: { id: true } })).id;
const newBillFields = (world: World) => ({
  rut: world.patientRut,
  createAccountIdDate: "2026-03-02",
  amount: 12_990,
  isPaid: false,
  accountCode: String(++nextAccountCode),
  clinicCode: "hcs-rcr",
});
const newLinkFields = (world: World, caregiverRut: string) => ({
  caregiverRut,
  relationship: "otro",
  documentSeen: "Poder notarial N° 88",
  parts: ["resultados"],
  expiresOn: world.daysAhead(60),
});
/** The path of a link the portal answered with (`{ url }`, or `{ payload: { url } }`). */
const linkOf = (body: { url?: string; payload?: { url?: string } }): string => {
  const url = body.url ?? body.payload?.url;
  if (!url) throw new Error(`no link in ${JSON.stringify(body).slice(0, 200)}`);
  return url.slice(url.indexOf(REST));
};

/** An upcoming appointment of the patient: booked in the scheduling mock's pages for her RUT, its id read in 'Mis citas'. */
async function bookedAppointment(w: World): Promise<string> {
  const agenda = `${w.ctx.mocksUrl}/agenda?externalCenterId=HCS@4`;
  const slotId = /name="slotId" value="([^"]+)"/.exec(await (await fetch(agenda)).text())?.[1];
  if (!slotId) throw new Error("no free slot left at HCS@4");
  const booking = await fetch(`${w.ctx.mocksUrl}/agenda/reservar`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ externalCenterId: "HCS@4", slotId, rut: w.patientRut, email: "paula@example.cl" }).toString(),
  });
  const code = /<strong>([A-Z]+-[A-Z0-9]{6})<\/strong>/.exec(await booking.text())?.[1];
  if (!code) throw new Error(`the mock did not book ${slotId}: ${booking.status}`);
  return code;
}

/** Staff (admins; executives where the endpoint admits them) reading or changing the patient's data. */
export const staffCalls: Record<string, Recipe> = {
  // Users and their accounts (server/features/users)
  "GET /api/rcr/v1/admin/:id": async (w) => ({ path: `/admin/${w.ids.patient}` }),
  "PATCH /api/rcr/v1/admin/:id": async (w) => ({ path: `/admin/${w.ids.patient}`, payload: { firstName: "Paula" } }),
  "GET /api/rcr/v1/admin/privileges/:id": async (w) => ({ path: `/admin/privileges/${w.ids.patient}` }),
  "POST /api/rcr/v1/admin": async (w) => {
    const rut = newRut();
    return {
      path: "/admin",
      payload: { rut, email: `nuevo${rut.slice(0, 8)}@correo.cl`, roleType: 2, rcrLink: clinicLink },
      patientId: createdPatient(w, rut),
    };
  },
  "POST /api/rcr/v1/admin/resetPassword": async (w) => {
    const other = await w.anotherPatient();
    return {
      path: "/admin/resetPassword",
      payload: { rut: other.rut, password: "Sujeto2026Clave", passwordConfirmation: "Sujeto2026Clave" },
      patientId: other.id,
    };
  },
  "POST /api/rcr/v1/admin/second-factor/reset": async (w) => {
    const other = await w.anotherPatient({ secondFactor: true });
    return { path: "/admin/second-factor/reset", payload: { userId: other.id, reason: "Perdió su teléfono" }, patientId: other.id };
  },
  "trpc users.get (query)": async (w) => ({ input: { id: w.ids.patient } }),
  "trpc users.update (mutation)": async (w) => ({ input: { id: w.ids.patient, firstName: "Paula" } }),
  "trpc users.privileges (query)": async (w) => ({ input: { id: w.ids.patient } }),
  "trpc users.create (mutation)": async (w) => {
    const rut = newRut();
    return {
      input: { rut, email: `nuevo${rut.slice(0, 8)}@correo.cl`, roleType: 2, rcrLink: clinicLink },
      patientId: createdPatient(w, rut),
    };
  },
  "trpc users.resetPassword (mutation)": async (w) => {
    const other = await w.anotherPatient();
    return { input: { rut: other.rut, password: "Sujeto2026Clave", passwordConfirmation: "Sujeto2026Clave" }, patientId: other.id };
  },
  "trpc users.sendResetLink (mutation)": async (w) => {
    const other = await w.anotherPatient();
    return { input: { id: other.id, rcrLink: clinicLink }, patientId: other.id };
  },
  "trpc users.resetSecondFactor (mutation)": async (w) => {
    const other = await w.anotherPatient({ secondFactor: true });
    return { input: { userId: other.id, reason: "Perdió su teléfono" }, patientId: other.id };
  },

  // Caregiver links (server/features/caregivers)
  "GET /api/rcr/v1/admin/users/:dependentId/caregivers": async (w) => ({ path: `/admin/users/${w.ids.patient}/caregivers` }),
  "POST /api/rcr/v1/admin/users/:dependentId/caregivers": async (w) => ({
    path: `/admin/users/${w.ids.patient}/caregivers`,
    payload: newLinkFields(w, (await w.anotherPatient()).rut),
  }),
  "PUT /api/rcr/v1/admin/caregivers/:linkId": async (w) => ({
    path: `/admin/caregivers/${await w.caregiverLink()}`,
    payload: { expiresOn: w.daysAhead(90) },
  }),
  "DELETE /api/rcr/v1/admin/caregivers/:linkId": async (w) => ({ path: `/admin/caregivers/${await w.caregiverLink()}` }),
  "trpc caregivers.list (query)": async (w) => ({ input: { dependentId: w.ids.patient } }),
  "trpc caregivers.create (mutation)": async (w) => ({
    input: { dependentId: w.ids.patient, link: newLinkFields(w, (await w.anotherPatient()).rut) },
  }),
  "trpc caregivers.renew (mutation)": async (w) => ({ input: { linkId: await w.caregiverLink(), expiresOn: w.daysAhead(90) } }),
  "trpc caregivers.revoke (mutation)": async (w) => ({ input: { linkId: await w.caregiverLink() } }),

  // Data rights (server/features/data-rights) and the audit trail itself, read for one patient
  "GET /api/rcr/v1/admin/users/:userId/accesses": async (w) => ({ path: `/admin/users/${w.ids.patient}/accesses` }),
  "PATCH /api/rcr/v1/admin/rights-requests/:id": async (w) => ({
    path: `/admin/rights-requests/${await w.rightsRequest()}`,
    payload: { status: "rejected", reason: "El teléfono registrado ya es el correcto" },
  }),
  "trpc dataRights.patientAccesses (query)": async (w) => ({ input: { userId: w.ids.patient } }),
  "trpc dataRights.updateRequest (mutation)": async (w) => ({
    input: { id: await w.rightsRequest(), status: "rejected", reason: "El teléfono registrado ya es el correcto" },
  }),
  "GET /api/rcr/v1/admin/audit/events": async (w) => ({ path: `/admin/audit/events?patient=${w.patientRut}` }),
  "GET /api/rcr/v1/admin/audit/export.csv": async (w) => ({ path: `/admin/audit/export.csv?patient=${w.patientRut}` }),
  "trpc audit.list (query)": async (w) => ({ input: { patient: w.patientRut } }),

  // Bills and their files (server/features/bills)
  "POST /api/rcr/v1/files/create-account": async (w) => ({ path: "/files/create-account", payload: newBillFields(w) }),
  "PATCH /api/rcr/v1/files/accountId/:id": async (w) => ({ path: `/files/accountId/${await w.bill()}`, payload: { amount: 13_990 } }),
  "POST /api/rcr/v1/files/upload": async (w) => ({ path: `/files/upload?accountId=${await w.bill()}`, upload: true }),
  "GET /api/rcr/v1/files/list/:accountId": async (w) => ({ path: `/files/list/${(await w.billWithFile()).billId}` }),
  "GET /api/rcr/v1/files/accounts/:rut": async (w) => ({ path: `/files/accounts/${w.patientRut}` }),
  "GET /api/rcr/v1/files/:path": async (w) => ({ path: `/files/${(await w.billWithFile()).path}` }),
  "GET /api/rcr/v1/files/download/:path": async (w, actor) => {
    const { path } = await w.billWithFile();
    return { path: linkOf((await w.rest("GET", `/files/${path}`, actor)).json()) };
  },
  "DELETE /api/rcr/v1/files/path/:path": async (w) => ({ path: `/files/path/${(await w.billWithFile()).path}` }),
  "DELETE /api/rcr/v1/files/account/:accountId": async (w) => ({ path: `/files/account/${await w.bill()}` }),
  "trpc bills.patient (query)": async (w) => ({ input: { rut: w.patientRut } }),
  "trpc bills.get (query)": async (w) => ({ input: { id: await w.bill() } }),
  "trpc bills.status (query)": async (w) => ({ input: { id: await w.bill() } }),
  "trpc bills.files (query)": async (w) => ({ input: { id: (await w.billWithFile()).billId } }),
  "trpc bills.fileLink (mutation)": async (w) => ({ input: { path: (await w.billWithFile()).path } }),
  "trpc bills.create (mutation)": async (w) => ({ input: newBillFields(w) }),
  "trpc bills.update (mutation)": async (w) => ({ input: { id: await w.bill(), amount: 13_990 } }),
  "trpc bills.remove (mutation)": async (w) => ({ input: { id: await w.bill() } }),
  "trpc bills.removeFile (mutation)": async (w) => ({ input: { path: (await w.billWithFile()).path } }),

  // Card payments (server/features/payments)
  "GET /api/rcr/v1/payment/receipt/:accountId": async (w) => ({ path: `/payment/receipt/${(await w.paidBill()).billId}` }),
  "GET /api/rcr/v1/payment/receipt/download/:buyOrder": async (w, actor) => {
    const { billId } = await w.paidBill();
    return { path: linkOf((await w.rest("GET", `/payment/receipt/${billId}`, actor)).json()) };
  },
  "GET /api/rcr/v1/payment/bill/:accountId": async (w) => ({ path: `/payment/bill/${(await w.paidBill()).billId}` }),
  "POST /api/rcr/v1/payment/refund": async (w) => ({
    path: "/payment/refund",
    payload: { accountId: (await w.paidBill()).billId, reason: "Cobro duplicado" },
  }),
  "trpc payments.receiptLink (mutation)": async (w) => ({ input: { accountId: (await w.paidBill()).billId } }),
  "trpc payments.billPayment (query)": async (w) => ({ input: { accountId: (await w.paidBill()).billId } }),
  "trpc payments.refund (mutation)": async (w) => ({ input: { accountId: (await w.paidBill()).billId, reason: "Cobro duplicado" } }),
};

/** A caregiver with a live link covering every part, reading and paying for the patient (X-Actuar-Por, or a link). */
export const caregiverCalls: Record<string, Recipe> = {
  "GET /api/rcr/v1/scheduling/patient": async () => ({ path: "/scheduling/patient" }),
  "trpc caregivers.schedulingPatient (query)": async () => ({}),

  // Results (server/features/results)
  "GET /api/rcr/v1/orders": async () => ({ path: "/orders" }),
  "GET /api/rcr/v1/orders/:orderNumber": async (w) => ({ path: `/orders/${w.lab.orderNumber}` }),
  "GET /api/rcr/v1/orders/analytes/:code/series": async (w) => ({ path: `/orders/analytes/${w.lab.code}/series` }),
  "GET /api/rcr/v1/orders-imaging": async () => ({ path: "/orders-imaging" }),
  "GET /api/rcr/v1/orders-imaging/pdf/:accessionNumber": async (w) => ({ path: `/orders-imaging/pdf/${w.imaging.accessionNumber}` }),
  "GET /api/rcr/v1/orders-imaging/:accessionNumber": async (w) => ({ path: `/orders-imaging/${w.imaging.accessionNumber}` }),
  "GET /api/rcr/v1/results/report": async (w) => {
    const orders = (await w.rest("GET", "/orders", "caregiver")).json().payload as Array<{ urlPDF: string | null }>;
    const link = orders.find((order) => order.urlPDF)!.urlPDF!;
    return { path: link.slice(link.indexOf(REST)), actingFor: false };
  },
  "GET /api/rcr/v1/mail/mailValtek": async (w) => {
    const orders = (await w.rest("GET", "/orders", "caregiver")).json().payload as Array<{ urlPDF: string | null }>;
    const link = orders.find((order) => order.urlPDF)!.urlPDF!;
    const query = new URLSearchParams({ email: "cualquiera@correo.cl", documentLink: link, clinic: "hcs-rcr" });
    return { path: `/mail/mailValtek?${query}`, actingFor: false };
  },
  "trpc laboratory.orders (query)": async () => ({ input: { fecha_inicio: "", fecha_termino: "" } }),

  // 'Mis citas' (the agenda part of the link)
  "GET /api/rcr/v1/appointments": async () => ({ path: "/appointments" }),
  "GET /api/rcr/v1/appointments/:id/calendar.ics": async (w) => ({ path: `/appointments/${await bookedAppointment(w)}/calendar.ics` }),
  "POST /api/rcr/v1/appointments/:id/cancel": async (w) => ({ path: `/appointments/${await bookedAppointment(w)}/cancel` }),
  "POST /api/rcr/v1/appointments/:id/confirm": async (w) => ({ path: `/appointments/${await bookedAppointment(w)}/confirm` }),
  "trpc appointments.list (query)": async () => ({}),
  "trpc appointments.calendar (query)": async (w) => ({ input: { id: await bookedAppointment(w) } }),
  "trpc appointments.cancel (mutation)": async (w) => ({ input: { id: await bookedAppointment(w) } }),
  "trpc appointments.confirm (mutation)": async (w) => ({ input: { id: await bookedAppointment(w) } }),
  "trpc laboratory.order (query)": async (w) => ({ input: { orderNumber: w.lab.orderNumber } }),
  "trpc laboratory.series (query)": async (w) => ({ input: { code: w.lab.code } }),
  "trpc imaging.studies (query)": async () => ({ input: { dateFrom: "", dateTo: "" } }),
  "trpc imaging.viewerUrl (query)": async (w) => ({ input: { accessionNumber: w.imaging.accessionNumber } }),
  "trpc imaging.reportUrl (query)": async (w) => ({ input: { accessionNumber: w.imaging.accessionNumber } }),
  "trpc reports.mail (mutation)": async (w) => {
    const orders = (await w.rest("GET", "/orders", "caregiver")).json().payload as Array<{ urlPDF: string | null }>;
    return { input: { documentLink: orders.find((order) => order.urlPDF)!.urlPDF!, clinic: "hcs-rcr" }, actingFor: false };
  },

  // Bills and their files
  "GET /api/rcr/v1/files/list/:accountId": async (w) => ({ path: `/files/list/${(await w.billWithFile()).billId}` }),
  "GET /api/rcr/v1/files/accounts/:rut": async (w) => ({ path: `/files/accounts/${w.patientRut}` }),
  "GET /api/rcr/v1/files/:path": async (w) => ({ path: `/files/${(await w.billWithFile()).path}` }),
  "GET /api/rcr/v1/files/download/:path": async (w) => {
    const { path } = await w.billWithFile();
    return { path: linkOf((await w.rest("GET", `/files/${path}`, "caregiver")).json()), actingFor: false };
  },
  "trpc bills.pending (query)": async () => ({}),
  "trpc bills.mine (query)": async () => ({ input: {} }),
  "trpc bills.status (query)": async (w) => ({ input: { id: await w.bill() } }),
  "trpc bills.files (query)": async (w) => ({ input: { id: (await w.billWithFile()).billId } }),
  "trpc bills.fileLink (mutation)": async (w) => ({ input: { path: (await w.billWithFile()).path } }),

  // Payments
  "POST /api/rcr/v1/payment/generate-transaction-new-prod": async (w) => ({
    path: "/payment/generate-transaction-new-prod",
    payload: { accountId: await w.bill(), rcrLink: clinicLink, clinicCode: "hcs-rcr" },
  }),
  // The return from Webpay names no one: the transaction the caregiver started names the patient.
  "GET /api/rcr/v1/payment/new-commit-prod": async (w) => ({
    path: `/payment/new-commit-prod?token_ws=${await w.caregiverPaidAtForm()}`,
    actingFor: false,
  }),
  "GET /api/rcr/v1/payment/account-status/": async (w) => ({ path: `/payment/account-status/?accountId=${(await w.paidBill()).billId}` }),
  "GET /api/rcr/v1/payment/history": async () => ({ path: "/payment/history" }),
  "GET /api/rcr/v1/payment/receipt/:accountId": async (w) => ({ path: `/payment/receipt/${(await w.paidBill()).billId}` }),
  "GET /api/rcr/v1/payment/receipt/download/:buyOrder": async (w) => {
    const { billId } = await w.paidBill();
    return { path: linkOf((await w.rest("GET", `/payment/receipt/${billId}`, "caregiver")).json()), actingFor: false };
  },
  "trpc payments.start (mutation)": async (w) => ({ input: { accountId: await w.bill(), rcrLink: clinicLink, clinicCode: "hcs-rcr" } }),
  "trpc payments.commit (mutation)": async (w) => ({ input: { token_ws: await w.caregiverPaidAtForm() }, actingFor: false }),
  "trpc payments.accountStatus (query)": async (w) => ({ input: { accountId: (await w.paidBill()).billId } }),
  "trpc payments.settleMine (mutation)": async () => ({}),
  "trpc payments.history (query)": async () => ({ input: {} }),
  "trpc payments.receiptAccounts (query)": async (w) => {
    await w.paidBill();
    return {};
  },
  "trpc payments.receiptLink (mutation)": async (w) => ({ input: { accountId: (await w.paidBill()).billId } }),
};

/**
 * Endpoints that name a patient-like input but never give one person's data to someone else. Each says why; an entry
 * here for an endpoint that no longer takes such an input fails the test (a stale reason).
 */
export const notAboutAnotherPatient: Record<string, string> = {
  // Signing in and the caller's own account: the RUT, codes and tokens are the caller's own.
  "POST /api/rcr/v1/auth/new-login": "the caller's own RUT and password",
  "POST /api/rcr/v1/auth/admin-login": "the caller's own RUT and password",
  "POST /api/rcr/v1/auth/request-reset-password-rut": "answers the same for every RUT and mails only the account's owner",
  "POST /api/rcr/v1/auth/new-password": "the holder of the mailed recovery link sets their own password",
  "POST /api/rcr/v1/auth/verify-otp": "the caller's own second-factor code",
  "POST /api/rcr/v1/auth/second-factor/confirm": "the caller's own second-factor code",
  "POST /api/rcr/v1/auth/change-password-user": "the caller's own password (the RUT sent is ignored)",
  "trpc auth.login (mutation)": "the caller's own RUT and password",
  "trpc auth.requestPasswordReset (mutation)": "answers the same for every RUT and mails only the account's owner",
  "trpc auth.resetPassword (mutation)": "the holder of the mailed recovery link sets their own password",
  "trpc auth.verifyOtp (mutation)": "the caller's own second-factor code",
  "trpc auth.confirmSecondFactor (mutation)": "the caller's own second-factor code",
  "trpc account.changePassword (mutation)": "the caller's own password (the RUT sent is ignored)",
  // Executives' clinics: a patient has none (400 'Solo los ejecutivos…').
  "POST /api/rcr/v1/admin/privileges-array": "an executive's clinics; refused for a patient",
  "trpc users.setPrivileges (mutation)": "an executive's clinics; refused for a patient",
  // The dependent's own action on who may act for them (recorded in their own log as 'Usted').
  "DELETE /api/rcr/v1/caregivers/mine/:linkId": "the patient revokes a link of their own",
  "trpc caregivers.revokeMine (mutation)": "the patient revokes a link of their own",
  // A link only its own patient is given: nobody else holds one.
  "GET /api/rcr/v1/patient/data-export/download/:id": "the patient's own export, by a link issued only to them",
};
