import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizeRut } from "../../server/contract/rut.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { restEndpoints, takesId, trpcEndpoints, type Endpoint } from "./support/endpoints.ts";
import { fillPath } from "./support/endpoints.ts";

// Issue 23, finding 1 (high): an executive took over a patient of another clinic by loading a bill for them, which
// registered the patient with the executive's clinic. A bill gives a clinic's staff the bill, never rights over the
// patient's account: reading, editing and resetting a user needs a registration made with the account.

/** 17.209.458-9 is a demo patient registered only with portada-rcr; the executive holds hcs-rcr and maitenes. */
const farPatientRut = "17.209.458-9";

let ctx: TestContext;
let executive: string;
let farPatientId: number;
beforeAll(async () => {
  ctx = await createTestContext();
  executive = await ctx.login(demo.executive.rut, demo.executive.password, "staff");
  const far = await ctx.db.prisma.user.findUniqueOrThrow({
    where: { rut: normalizeRut(farPatientRut) },
    select: { id: true, patientClinics: { select: { codeClinicStr: true } } },
  });
  expect(far.patientClinics.map((c) => c.codeClinicStr)).toEqual(["portada-rcr"]);
  farPatientId = far.id;
});
afterAll(() => ctx.close());

const asExecutive = (method: "GET" | "POST" | "PATCH" | "DELETE", path: string, payload?: object) =>
  ctx.app.inject({ method, url: path.startsWith("/trpc") ? path : api(path), headers: bearer(executive), payload });
const trpcGet = (procedure: string, input: unknown) => `/trpc/${procedure}?input=${encodeURIComponent(JSON.stringify(input))}`;

/** Every way an executive could read, change or reset the far patient's account: REST and tRPC. */
async function accountAnswers(): Promise<Record<string, number>> {
  const calls: Record<string, () => ReturnType<typeof asExecutive>> = {
    "GET /admin/:id": () => asExecutive("GET", `/admin/${farPatientId}`),
    "PATCH /admin/:id": () => asExecutive("PATCH", `/admin/${farPatientId}`, { email: "atacante@correo.cl" }),
    "GET /admin/privileges/:id": () => asExecutive("GET", `/admin/privileges/${farPatientId}`),
    "POST /admin/resetPassword": () =>
      asExecutive("POST", "/admin/resetPassword", { rut: farPatientRut, password: "Tomada2026x", passwordConfirmation: "Tomada2026x" }),
    "trpc users.get": () => asExecutive("GET", trpcGet("users.get", { id: farPatientId })),
    "trpc users.privileges": () => asExecutive("GET", trpcGet("users.privileges", { id: farPatientId })),
    "trpc users.update": () => asExecutive("POST", "/trpc/users.update", { id: farPatientId, email: "atacante@correo.cl" }),
    "trpc users.resetPassword": () =>
      asExecutive("POST", "/trpc/users.resetPassword", {
        rut: farPatientRut,
        password: "Tomada2026x",
        passwordConfirmation: "Tomada2026x",
      }),
  };
  const answers: Record<string, number> = {};
  for (const [name, call] of Object.entries(calls)) answers[name] = (await call()).statusCode;
  return answers;
}

async function expectAccountUnreachable(): Promise<void> {
  const answers = await accountAnswers();
  for (const [name, status] of Object.entries(answers)) expect([403, 404], `${name} answered ${status}`).toContain(status);
  const patient = await ctx.db.prisma.user.findUniqueOrThrow({ where: { id: farPatientId }, select: { email: true, tokenVersion: true } });
  expect(patient.email).not.toBe("atacante@correo.cl");
  expect(patient.tokenVersion).toBe(0);
  const list = await asExecutive("GET", "/admin/filter/users?param=17209458&page=1&limit=10");
  expect(list.json().usersList).toEqual([]);
}

describe("an executive and a patient registered only with another clinic", () => {
  it("cannot reach the patient's account before any bill", async () => {
    await expectAccountUnreachable();
  });

  it("can load a bill for the patient at their clinic, and the bill gives no rights over the account (REST, as found)", async () => {
    const created = await asExecutive("POST", "/files/create-account", {
      rut: farPatientRut,
      accountCode: "7700001",
      createAccountIdDate: "2026-11-20",
      amount: 15000,
      isPaid: false,
      clinicCode: "hcs-rcr",
    });
    expect(created.statusCode, created.body).toBe(200);
    await expectAccountUnreachable();
    const registrations = await ctx.db.prisma.patientClinic.findMany({ where: { userId: farPatientId } });
    expect(registrations.map((r) => r.codeClinicStr)).toEqual(["portada-rcr"]);

    const removed = await asExecutive("DELETE", `/files/account/${created.json().accountId}`);
    expect(removed.statusCode).toBe(200);
    await expectAccountUnreachable();
  });

  it("gets no rights by moving one of their clinic's bills to the patient and back (REST and tRPC)", async () => {
    const ownBill = await ctx.db.prisma.bill.findFirstOrThrow({
      where: { clinicCode: "hcs-rcr" },
      select: { id: true, user: { select: { rut: true } } },
    });
    const moved = await asExecutive("PATCH", `/files/accountId/${ownBill.id}`, { rut: farPatientRut });
    expect(moved.statusCode, moved.body).toBe(200);
    await expectAccountUnreachable();
    const back = await asExecutive("POST", "/trpc/bills.update", { id: ownBill.id, rut: ownBill.user.rut });
    expect(back.statusCode, back.body).toBe(200);
    await expectAccountUnreachable();
  });

  it("gets no rights from a bill created over tRPC either", async () => {
    const created = await asExecutive("POST", "/trpc/bills.create", {
      rut: farPatientRut,
      accountCode: "7700002",
      createAccountIdDate: "2026-11-21",
      amount: 9900,
      isPaid: false,
      clinicCode: "maitenes",
    });
    expect(created.statusCode, created.body).toBe(200);
    await expectAccountUnreachable();
  });

  it("answers every staff endpoint that addresses a user by id like a missing user, for that patient", async () => {
    const byUserId: Endpoint[] = [...restEndpoints(ctx.app), ...trpcEndpoints()].filter(
      (endpoint) => endpoint.access !== undefined && ["staff", "admin"].includes(endpoint.access) && takesId(endpoint),
    );
    // Bills, their files and patients' rights requests are addressed by their own ids: their executive scope is tested
    // in bills-permissions and data-rights-requests.
    const userEndpoints = byUserId.filter((endpoint) => !/account|file|rights/i.test(endpoint.path) && !endpoint.path.startsWith("bills."));
    expect(userEndpoints.length).toBeGreaterThanOrEqual(6);
    for (const endpoint of userEndpoints) {
      const url =
        endpoint.kind === "rest"
          ? fillPath(endpoint.path, farPatientId)
          : endpoint.method === "GET"
            ? trpcGet(endpoint.path, { id: farPatientId })
            : `/trpc/${endpoint.path}`;
      const response = await ctx.app.inject({
        method: endpoint.method as "GET",
        url,
        headers: bearer(executive),
        payload: endpoint.method === "GET" ? undefined : { id: farPatientId, email: "atacante@correo.cl" },
      });
      expect([403, 404], `${endpoint.name}: ${response.statusCode} ${response.body.slice(0, 120)}`).toContain(response.statusCode);
    }
  });
});
