import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { multipartBody, pdfBytes } from "../helpers/multipart.ts";

// The permission matrix of bills: every REST route × role (none, patient, executive of hcs-rcr and maitenes, admin)
// × someone else's ids. Another's bill or file answers exactly like a missing one (404, same body).

let ctx: TestContext;
const tokens = { patient: "", executive: "", admin: "" };
const ids = { own: 0, ownFile: "", otherPatient: 0, otherPatientFile: "", farClinic: 0, farClinicFile: "" };
const MISSING_ID = 999_999;
const MISSING_PATH = "00000000-0000-4000-8000-000000000000";

beforeAll(async () => {
  ctx = await createTestContext();
  const prisma = ctx.db.prisma;
  const withFile = (rut: string, clinicCode: string) =>
    prisma.bill.findFirstOrThrow({
      where: { user: { rut }, clinicCode, files: { some: {} } },
      select: { id: true, files: { select: { path: true }, take: 1 } },
    });
  const own = await withFile("12345678-5", "hcs-rcr");
  const far = await withFile("12345678-5", "puertomontt-rcr");
  const other = await withFile("16789012-1", "hcs-rcr");
  Object.assign(ids, {
    own: own.id,
    ownFile: own.files[0]!.path,
    farClinic: far.id,
    farClinicFile: far.files[0]!.path,
    otherPatient: other.id,
    otherPatientFile: other.files[0]!.path,
  });
  tokens.patient = await ctx.login(demo.patient.rut, demo.patient.password);
  tokens.executive = await ctx.login(demo.executive.rut, demo.executive.password, "staff");
  tokens.admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
});
afterAll(() => ctx.close());

type Method = "GET" | "POST" | "PATCH" | "DELETE";
const call = (token: string | null, method: Method, path: string, payload?: object) =>
  ctx.app.inject({ method, url: api(path), headers: token ? bearer(token) : {}, ...(payload ? { payload } : {}) });

const newBill = (accountCode: string, clinicCode = "hcs-rcr") => ({
  rut: demo.patient.rut,
  accountCode,
  createAccountIdDate: "2026-03-01",
  amount: 1000,
  isPaid: false,
  clinicCode,
});

// Reads by id: [label, method, path for an id]
const readsById: Array<[string, (id: number) => string]> = [
  ["files/list", (id) => `/files/list/${id}`],
  ["account-status", (id) => `/payment/account-status/?accountId=${id}`],
];
const readsByPath: Array<[string, (path: string) => string]> = [["files/{path}", (path) => `/files/${path}`]];
const staffRoutes: Array<[Method, string, object?]> = [
  ["POST", "/files/create-account", newBill("700001")],
  ["PATCH", "/files/accountId/1", { amount: 5 }],
  ["POST", "/files/upload?accountId=1", undefined],
  ["GET", "/files/filter/users?page=1", undefined],
  ["DELETE", "/files/path/" + MISSING_PATH, undefined],
  ["DELETE", "/files/account/1", undefined],
];

describe("without a session", () => {
  it.each([
    ...staffRoutes.map(([m, p]) => [m, p] as const),
    ["GET", "/files/accounts/12345678-5"] as const,
    ["GET", "/files/list/1"] as const,
  ])("answers 401 to %s %s", async (method, path) => {
    expect((await call(null, method, path)).statusCode).toBe(401);
  });
});

describe("a patient", () => {
  it.each(staffRoutes)("gets 403 on the staff route %s %s", async (method, path, body) => {
    const response = await call(tokens.patient, method, path, body);
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe("No tiene permiso para acceder a esta página");
  });

  it.each(readsById)("reads %s of their own bill", async (_label, path) => {
    expect((await call(tokens.patient, "GET", path(ids.own))).statusCode).toBe(200);
  });

  it.each(readsById)("gets on %s of another patient's bill exactly the answer of a missing bill", async (_label, path) => {
    const other = await call(tokens.patient, "GET", path(ids.otherPatient));
    const missing = await call(tokens.patient, "GET", path(MISSING_ID));
    expect(other.statusCode).toBe(404);
    expect(other.body).toBe(missing.body);
  });

  it.each(readsByPath)("gets on %s of another patient's file exactly the answer of a missing file", async (_label, path) => {
    expect((await call(tokens.patient, "GET", path(ids.ownFile))).statusCode).toBe(200);
    const other = await call(tokens.patient, "GET", path(ids.otherPatientFile));
    const missing = await call(tokens.patient, "GET", path(MISSING_PATH));
    expect(other.statusCode).toBe(404);
    expect(other.body).toBe(missing.body);
  });

  it("lists only their own bills: another RUT answers like a RUT without bills", async () => {
    const own = await call(tokens.patient, "GET", "/files/accounts/12.345.678-5");
    expect(own.json().total).toBeGreaterThan(0);
    const other = await call(tokens.patient, "GET", "/files/accounts/16.789.012-1");
    expect(other.statusCode).toBe(200);
    expect(other.json()).toEqual({ accounts: [], page: 1, total: 0 });
  });

  it("cannot use a link made for another user by changing the user in it", async () => {
    const link = (await call(tokens.patient, "GET", `/files/${ids.ownFile}`)).json().url as string;
    const otherFile = link.replace(ids.ownFile, ids.otherPatientFile);
    expect((await ctx.app.inject({ method: "GET", url: otherFile })).statusCode).toBe(403);
  });
});

describe("an executive (hcs-rcr, maitenes)", () => {
  it("sees bills of their clinics only in the staff search", async () => {
    const response = await call(tokens.executive, "GET", "/files/filter/users?limit=100");
    const clinicsSeen = new Set(response.json().data.map((b: { clinicCode: string }) => b.clinicCode));
    expect([...clinicsSeen].every((c) => c === "hcs-rcr" || c === "maitenes")).toBe(true);
    expect(response.json().data.some((b: { id: number }) => b.id === ids.own)).toBe(true);
  });

  it.each([
    ["GET", (id: number) => `/files/list/${id}`, undefined],
    ["PATCH", (id: number) => `/files/accountId/${id}`, { amount: 1 }],
    ["DELETE", (id: number) => `/files/account/${id}`, undefined],
  ] as const)("gets %s %s on another clinic's bill exactly like a missing bill", async (method, path, body) => {
    const far = await call(tokens.executive, method, path(ids.farClinic), body);
    const missing = await call(tokens.executive, method, path(MISSING_ID), body);
    expect(far.statusCode).toBe(404);
    expect(far.body).toBe(missing.body);
  });

  it("cannot upload to, link or delete files of another clinic's bill", async () => {
    const { payload, headers } = multipartBody({}, [{ name: "a.pdf", content: pdfBytes(100) }]);
    const upload = await ctx.app.inject({
      method: "POST",
      url: api(`/files/upload?accountId=${ids.farClinic}`),
      payload,
      headers: { ...headers, ...bearer(tokens.executive) },
    });
    expect(upload.statusCode).toBe(404);
    expect((await call(tokens.executive, "GET", `/files/${ids.farClinicFile}`)).statusCode).toBe(404);
    expect((await call(tokens.executive, "DELETE", `/files/path/${ids.farClinicFile}`)).statusCode).toBe(404);
    expect(await ctx.db.prisma.billFile.count({ where: { path: ids.farClinicFile } })).toBe(1);
  });

  it("creates bills at a clinic they hold and gets 403 at another", async () => {
    expect((await call(tokens.executive, "POST", "/files/create-account", newBill("700100"))).statusCode).toBe(200);
    const denied = await call(tokens.executive, "POST", "/files/create-account", newBill("700101", "puertomontt-rcr"));
    expect(denied.statusCode).toBe(403);
    expect(await ctx.db.prisma.bill.count({ where: { accountCode: "700101" } })).toBe(0);
  });

  it("changes a bill of their clinic, and the change is audited with before and after", async () => {
    const response = await call(tokens.executive, "PATCH", `/files/accountId/${ids.own}`, { isPaid: true, amount: 4321 });
    expect(response.statusCode).toBe(200);
    expect(response.json().payload).toMatchObject({ isPaid: true, status: "Pagada", amount: 4321 });
    const audit = await ctx.db.prisma.auditEvent.findFirstOrThrow({ where: { action: "bill.update", resourceId: String(ids.own) } });
    expect(audit.before).toMatchObject({ status: expect.any(String) });
    expect(audit.after).toMatchObject({ amount: 4321 });
  });

  it("cannot change the account code of an existing bill", async () => {
    const response = await call(tokens.executive, "PATCH", `/files/accountId/${ids.own}`, { accountCode: "1" });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("El ID de cuenta no se puede modificar");
  });

  it("loses access on the next request when an admin removes the privilege", async () => {
    const executiveId = (await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: "22222222-2" } })).id;
    const setClinics = (clinics: string[]) =>
      ctx.app.inject({
        method: "POST",
        url: api(`/admin/privileges-array?id_user=${executiveId}`),
        headers: bearer(tokens.admin),
        payload: clinics.map((codeClinicStr) => ({ codeClinicStr, id_permission: 1, id_user: executiveId })),
      });
    expect((await call(tokens.executive, "GET", `/files/list/${ids.own}`)).statusCode).toBe(200);
    expect((await setClinics(["maitenes"])).statusCode).toBe(200);
    try {
      expect((await call(tokens.executive, "GET", `/files/list/${ids.own}`)).statusCode).toBe(404);
    } finally {
      expect((await setClinics(["hcs-rcr", "maitenes"])).statusCode).toBe(200);
    }
  });

  it("loses access as soon as the database announces a privilege removed outside the portal (psql)", async () => {
    const executiveId = (await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: "22222222-2" } })).id;
    expect((await call(tokens.executive, "GET", `/files/list/${ids.own}`)).statusCode).toBe(200);
    await ctx.db.prisma.privilege.deleteMany({ where: { userId: executiveId, codeClinicStr: "hcs-rcr" } });
    try {
      await expect
        .poll(async () => (await call(tokens.executive, "GET", `/files/list/${ids.own}`)).statusCode, { timeout: 2_000 })
        .toBe(404);
    } finally {
      await ctx.db.prisma.privilege.create({ data: { userId: executiveId, codeClinicStr: "hcs-rcr", idPermission: 1 } });
    }
  });
});

describe("an admin", () => {
  it("sees and changes bills of every clinic, and deletes one with its files", async () => {
    expect((await call(tokens.admin, "GET", `/files/list/${ids.farClinic}`)).statusCode).toBe(200);
    expect((await call(tokens.admin, "PATCH", `/files/accountId/${ids.farClinic}`, { amount: 77 })).statusCode).toBe(200);
    const created = await call(tokens.admin, "POST", "/files/create-account", newBill("700200", "lircay-rcr"));
    const { accountId } = created.json();
    const { payload, headers } = multipartBody({}, [{ name: "a.pdf", content: pdfBytes(100) }]);
    await ctx.app.inject({
      method: "POST",
      url: api(`/files/upload?accountId=${accountId}`),
      payload,
      headers: { ...headers, ...bearer(tokens.admin) },
    });
    const removed = await call(tokens.admin, "DELETE", `/files/account/${accountId}`);
    expect(removed.statusCode).toBe(200);
    expect(await ctx.db.prisma.billFile.count({ where: { billId: accountId } })).toBe(0);
    expect(await ctx.db.prisma.auditEvent.count({ where: { action: "bill.delete", resourceId: String(accountId) } })).toBe(1);
  });

  it("deletes one file by its path", async () => {
    const file = await ctx.db.prisma.billFile.findFirstOrThrow({ where: { billId: ids.farClinic }, select: { path: true } });
    expect((await call(tokens.admin, "DELETE", `/files/path/${file.path}`)).statusCode).toBe(200);
    expect((await call(tokens.admin, "DELETE", `/files/path/${file.path}`)).statusCode).toBe(404);
  });
});
