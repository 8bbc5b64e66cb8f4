import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signLink } from "../../server/lib/signed-links.ts";
import { demoBillPdf } from "../../server/db/seed-bills.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { multipartBody, pdfBytes } from "../helpers/multipart.ts";
import { userIdByRut } from "../helpers/fixtures.ts";

// Bills and their PDFs through the REST contract (SPEC §7 'Bills and files'): creating with files in one call and in
// two, the upload limits and checks, odd names, sorting, signed download links.

let ctx: TestContext;
const tokens = { admin: "", executive: "", patient: "" };
const MiB2 = 2 * 1024 * 1024;
const bill = (accountCode: string, extra: Record<string, unknown> = {}) => ({
  rut: "12.345.678-5",
  accountCode,
  createAccountIdDate: "2026-02-14",
  amount: 125000,
  isPaid: false,
  clinicCode: "hcs-rcr",
  ...extra,
});

beforeAll(async () => {
  ctx = await createTestContext();
  tokens.admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
  tokens.executive = await ctx.login(demo.executive.rut, demo.executive.password, "staff");
  tokens.patient = await ctx.login(demo.patient.rut, demo.patient.password);
});
afterAll(() => ctx.close());

const counts = async () => ({ bills: await ctx.db.prisma.bill.count(), files: await ctx.db.prisma.billFile.count() });

async function upload(token: string, url: string, fields: Record<string, string>, files: Parameters<typeof multipartBody>[1]) {
  const { payload, headers } = multipartBody(fields, files);
  return ctx.app.inject({ method: "POST", url: api(url), payload, headers: { ...headers, ...bearer(token) } });
}

const asFields = (values: Record<string, unknown>) => Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));

describe("creating a bill", () => {
  it("creates the bill and its two PDFs in one multipart call", async () => {
    const pdfA = await demoBillPdf("Detalle", ["uno"]);
    const pdfB = await demoBillPdf("Epicrisis", ["dos"]);
    const response = await upload(tokens.admin, "/files/create-account", asFields(bill("900001")), [
      { name: "detalle.pdf", content: pdfA },
      { name: "epicrisis.pdf", content: pdfB },
    ]);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.account).toMatchObject({ accountCode: "900001", amount: 125000, isPaid: false, status: "Pendiente", rut: "12345678-5" });
    expect(body.files.map((f: { fileName: string }) => f.fileName)).toEqual(["detalle.pdf", "epicrisis.pdf"]);
    const stored = await ctx.db.prisma.billFile.findMany({ where: { billId: body.accountId }, orderBy: { id: "asc" } });
    expect(Buffer.from(stored[1]!.content).equals(Buffer.from(pdfB))).toBe(true);
    expect(await ctx.db.prisma.auditEvent.count({ where: { action: "bill.create", resourceId: String(body.accountId) } })).toBe(1);
  });

  it("creates the bill by JSON, then adds a PDF with files/upload (two calls)", async () => {
    const created = await ctx.app.inject({
      method: "POST",
      url: api("/files/create-account"),
      headers: bearer(tokens.admin),
      payload: bill("900002"),
    });
    expect(created.statusCode).toBe(200);
    const { accountId } = created.json();
    const uploaded = await upload(tokens.admin, `/files/upload?accountId=${accountId}`, {}, [
      { name: "cuenta.pdf", content: pdfBytes(5000) },
    ]);
    expect(uploaded.statusCode).toBe(200);
    expect(uploaded.json().message).toBe("Archivos subidos con éxito!");
    const list = await ctx.app.inject({ method: "GET", url: api(`/files/list/${accountId}`), headers: bearer(tokens.admin) });
    expect(list.json().getFileList).toEqual([expect.objectContaining({ fileName: "cuenta.pdf", size: 5000 })]);
  });

  it("answers 409 for an account code already used at that clinic and stores nothing", async () => {
    const before = await counts();
    const response = await ctx.app.inject({
      method: "POST",
      url: api("/files/create-account"),
      headers: bearer(tokens.admin),
      payload: bill("900001"),
    });
    expect(response.statusCode).toBe(409);
    expect(await counts()).toEqual(before);
  });

  it("refuses an account code with letters with 'Solo números' and an unknown patient with a Spanish 400", async () => {
    const letters = await ctx.app.inject({
      method: "POST",
      url: api("/files/create-account"),
      headers: bearer(tokens.admin),
      payload: bill("12a"),
    });
    expect(letters.statusCode).toBe(400);
    expect(letters.json().message).toBe("Solo números");
    const nobody = await ctx.app.inject({
      method: "POST",
      url: api("/files/create-account"),
      headers: bearer(tokens.admin),
      payload: bill("900003", { rut: "11.111.111-1" }),
    });
    expect(nobody.statusCode).toBe(400);
    expect(nobody.json().message).toBe("No existe un paciente con el Rut 11.111.111-1");
  });

  it("refuses a bill of $ 0, on creation and on edit, and stores nothing (issue 42, point 10: a bill is something to pay)", async () => {
    const before = await counts();
    for (const amount of [0, "0", "000"]) {
      const response = await ctx.app.inject({
        method: "POST",
        url: api("/files/create-account"),
        headers: bearer(tokens.admin),
        payload: bill("900004", { amount }),
      });
      expect(response.statusCode, String(amount)).toBe(400);
      expect(response.json().message).toBe("El monto debe ser un número entero entre 1 y 999.999.999");
    }
    expect(await counts()).toEqual(before);
    const created = await ctx.app.inject({
      method: "POST",
      url: api("/files/create-account"),
      headers: bearer(tokens.admin),
      payload: bill("900005"),
    });
    const { accountId } = created.json();
    const edited = await ctx.app.inject({
      method: "PATCH",
      url: api(`/files/accountId/${accountId}`),
      headers: bearer(tokens.admin),
      payload: { amount: 0 },
    });
    expect(edited.statusCode).toBe(400);
    expect(edited.json().message).toBe("El monto debe ser un número entero entre 1 y 999.999.999");
    expect((await ctx.db.prisma.bill.findUniqueOrThrow({ where: { id: accountId } })).amount).toBe(125000);
  });
});

describe("a bill's file count in the lists", () => {
  const listed = async (accountCode: string) => {
    const response = await ctx.app.inject({
      method: "GET",
      url: api("/files/accounts/12345678-5?orderBy=amount&direction=ASC&limit=100"),
      headers: bearer(tokens.patient),
    });
    return (response.json().accounts as Array<{ accountCode: string; filesCount: number }>).find((row) => row.accountCode === accountCode);
  };

  it("follows the bill's PDFs: added in the create call, added later, deleted, and written outside the portal", async () => {
    const created = await upload(tokens.admin, "/files/create-account", asFields(bill("900050")), [
      { name: "a.pdf", content: pdfBytes(1000) },
      { name: "b.pdf", content: pdfBytes(1000) },
    ]);
    const { accountId, files } = created.json() as { accountId: number; files: Array<{ path: string }> };
    expect((await listed("900050"))?.filesCount).toBe(2);

    await upload(tokens.admin, `/files/upload?accountId=${accountId}`, {}, [{ name: "c.pdf", content: pdfBytes(1000) }]);
    expect((await listed("900050"))?.filesCount).toBe(3);

    const deleted = await ctx.app.inject({ method: "DELETE", url: api(`/files/path/${files[0]!.path}`), headers: bearer(tokens.admin) });
    expect(deleted.statusCode).toBe(200);
    expect((await listed("900050"))?.filesCount).toBe(2);

    // An operator removing a file with SQL is counted too: the count is kept by the database, not by the portal.
    await ctx.db.prisma.$executeRawUnsafe(`DELETE FROM "BillFile" WHERE "path" = $1`, files[1]!.path);
    expect((await listed("900050"))?.filesCount).toBe(1);
  });
});

describe("upload limits", () => {
  it("answers 413 to a file of 2 MiB + 1 byte in a one-call create and stores neither bill nor file", async () => {
    const before = await counts();
    const response = await upload(tokens.admin, "/files/create-account", asFields(bill("900010")), [
      { name: "chica.pdf", content: pdfBytes(1000) },
      { name: "grande.pdf", content: pdfBytes(MiB2 + 1) },
    ]);
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe("El archivo grande.pdf pesa más de 2MB");
    expect(await counts()).toEqual(before);
  });

  it("accepts exactly 2 MiB, and answers 413 to 2 MiB + 1 byte on files/upload without storing it", async () => {
    const created = await ctx.app.inject({
      method: "POST",
      url: api("/files/create-account"),
      headers: bearer(tokens.admin),
      payload: bill("900011"),
    });
    const { accountId } = created.json();
    const exact = await upload(tokens.admin, `/files/upload?accountId=${accountId}`, {}, [{ name: "justo.pdf", content: pdfBytes(MiB2) }]);
    expect(exact.statusCode).toBe(200);
    const before = await counts();
    const over = await upload(tokens.admin, `/files/upload?accountId=${accountId}`, {}, [
      { name: "grande.pdf", content: pdfBytes(MiB2 + 1) },
    ]);
    expect(over.statusCode).toBe(413);
    expect(await counts()).toEqual(before);
  });

  it("refuses a renamed non-PDF (declared application/pdf, content not %PDF-) and a PDF declared as another type", async () => {
    const before = await counts();
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200)]);
    const renamed = await upload(tokens.admin, "/files/create-account", asFields(bill("900012")), [{ name: "foto.pdf", content: png }]);
    expect(renamed.statusCode).toBe(400);
    expect(renamed.json().message).toBe("Solo se permiten archivos PDF");
    const wrongType = await upload(tokens.admin, "/files/create-account", asFields(bill("900013")), [
      { name: "doc.pdf", content: pdfBytes(100), type: "text/html" },
    ]);
    expect(wrongType.statusCode).toBe(400);
    expect(await counts()).toEqual(before);
  });

  it("answers a malformed multipart body (a JSON text under a multipart type) with a Spanish 400, storing nothing", async () => {
    const before = await counts();
    for (const url of ["/files/create-account", "/files/upload?accountId=1"]) {
      const response = await ctx.app.inject({
        method: "POST",
        url: api(url),
        headers: { ...bearer(tokens.admin), "content-type": "multipart/form-data; boundary=x" },
        payload: JSON.stringify({ accountCode: "1" }),
      });
      expect(response.statusCode, url).toBe(400);
      expect(response.json().message, url).toMatch(/^[^a-z]*[A-ZÁÉÍÓÚ][a-záéíóúñ]/);
    }
    expect(await counts()).toEqual(before);
  });

  it("keeps names with ../, NUL, quotes and 300 characters harmless: stored under a generated id, shown cleaned", async () => {
    const names = ["../../etc/passwd.pdf", "a\u0000b.pdf", 'co"mi"llas\\y\'simples.pdf', `${"x".repeat(300)}.pdf`];
    const response = await upload(
      tokens.admin,
      "/files/create-account",
      asFields(bill("900014")),
      names.map((name) => ({ name, content: pdfBytes(300) })),
    );
    expect(response.statusCode).toBe(200);
    const files = response.json().files as Array<{ fileName: string; path: string }>;
    expect(files[0]!.fileName).toBe("passwd.pdf");
    expect(files[1]!.fileName).toBe("ab.pdf");
    expect(files[3]!.fileName.length).toBeLessThanOrEqual(150);
    expect(files[3]!.fileName.endsWith(".pdf")).toBe(true);
    for (const file of files) expect(file.path).toMatch(/^[0-9a-f-]{36}$/);
    const link = await ctx.app.inject({ method: "GET", url: api(`/files/${files[2]!.path}`), headers: bearer(tokens.admin) });
    const download = await ctx.app.inject({ method: "GET", url: link.json().url });
    expect(download.statusCode).toBe(200);
    const disposition = String(download.headers["content-disposition"]);
    expect(disposition).toMatch(/^attachment; filename="[^"\\]*"; filename\*=UTF-8''[A-Za-z0-9%._~!-]+$/);
    expect(decodeURIComponent(disposition.split("''")[1]!)).toBe(files[2]!.fileName);
  });
});

describe("sorting and paging", () => {
  it("pages the patient's bills 10 at a time, newest first by default", async () => {
    const response = await ctx.app.inject({
      method: "GET",
      url: api("/files/accounts/12.345.678-5?page=1&limit=10&clinic=hcs-rcr"),
      headers: bearer(tokens.patient),
    });
    expect(response.statusCode).toBe(200);
    const { accounts, total, page } = response.json();
    expect(page).toBe(1);
    expect(total).toBeGreaterThan(10);
    expect(accounts).toHaveLength(10);
    const dates = accounts.map((a: { createAccountIdDate: string }) => a.createAccountIdDate);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it("sorts by amount ascending and by status", async () => {
    const byAmount = await ctx.app.inject({
      method: "GET",
      url: api("/files/accounts/12345678-5?orderBy=amount&direction=ASC&limit=100"),
      headers: bearer(tokens.patient),
    });
    const amounts = byAmount.json().accounts.map((a: { amount: number }) => a.amount);
    expect([...amounts].sort((a, b) => a - b)).toEqual(amounts);
    const byStatus = await ctx.app.inject({
      method: "GET",
      url: api("/files/accounts/12345678-5?orderBy=isPaid&direction=DESC&limit=100"),
      headers: bearer(tokens.patient),
    });
    const paid = byStatus.json().accounts.map((a: { isPaid: boolean }) => a.isPaid);
    expect(paid.indexOf(false)).toBeGreaterThan(paid.lastIndexOf(true));
  });

  it.each([
    ["/files/accounts/12345678-5?orderBy=rut", "patient", "patient"],
    ['/files/accounts/12345678-5?orderBy=amount;DROP TABLE "Bill"', "patient", "patient"],
    ["/files/accounts/12345678-5?orderBy=amount&direction=sideways", "patient", "patient"],
    ["/files/filter/users?orderBy=passwordHash", "admin", "admin"],
    ["/files/filter/users?orderBy=user.passwordHash&direction=ASC", "admin", "admin"],
  ])("refuses the sort %s with a Spanish 400", async (url, who) => {
    const token = who === "admin" ? tokens.admin : tokens.patient;
    const response = await ctx.app.inject({ method: "GET", url: api(url), headers: bearer(token) });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/^(Orden inválido|Dirección de orden inválida)/);
  });

  it("lets staff search by account code and patient name, sorted by RUT", async () => {
    const byCode = await ctx.app.inject({
      method: "GET",
      url: api("/files/filter/users?param=90000&orderBy=accountCode&direction=ASC"),
      headers: bearer(tokens.admin),
    });
    expect(byCode.statusCode).toBe(200);
    expect(byCode.json().data[0].accountCode).toBe("900001");
    const byName = await ctx.app.inject({
      method: "GET",
      url: api("/files/filter/users?param=soto&orderBy=rut"),
      headers: bearer(tokens.admin),
    });
    expect(byName.json().data.every((b: { lastName: string }) => b.lastName === "Soto")).toBe(true);
    expect(byName.json().total).toBeGreaterThan(0);
  });
});

describe("download links", () => {
  async function aFile() {
    const file = await ctx.db.prisma.billFile.findFirstOrThrow({
      where: { bill: { user: { rut: "12345678-5" } } },
      select: { path: true, content: true },
    });
    return file;
  }

  it("gives the owner a link that serves the PDF bytes with safe headers, and audits the download", async () => {
    const file = await aFile();
    const link = await ctx.app.inject({ method: "GET", url: api(`/files/${file.path}`), headers: bearer(tokens.patient) });
    expect(link.statusCode).toBe(200);
    const before = await ctx.db.prisma.auditEvent.count({ where: { action: "bill.file.download" } });
    const download = await ctx.app.inject({ method: "GET", url: link.json().url });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-type"]).toBe("application/pdf");
    expect(download.headers["x-content-type-options"]).toBe("nosniff");
    expect(download.headers["cache-control"]).toBe("no-store");
    expect(download.headers["content-disposition"]).toContain("filename*=UTF-8''");
    expect(download.rawPayload.equals(Buffer.from(file.content))).toBe(true);
    expect(await ctx.db.prisma.auditEvent.count({ where: { action: "bill.file.download" } })).toBe(before + 1);
  });

  it("refuses an expired link and an altered one", async () => {
    const file = await aFile();
    const userId = await userIdByRut(ctx.db.prisma, demo.patient.rut);
    const { tokenVersion } = await ctx.db.prisma.user.findUniqueOrThrow({ where: { id: userId }, select: { tokenVersion: true } });
    const anHourAgo = new Date(Date.now() - 3_600_000);
    const expired = await signLink(ctx.config, { userId, tokenVersion, purpose: "bill-file", ref: file.path }, 300, anHourAgo);
    const response = await ctx.app.inject({ method: "GET", url: api(`/files/download/${file.path}?token=${expired}`) });
    expect(response.statusCode).toBe(403);
    expect(response.json().message).toBe("El enlace de descarga no es válido o expiró");

    const link = (await ctx.app.inject({ method: "GET", url: api(`/files/${file.path}`), headers: bearer(tokens.patient) })).json()
      .url as string;
    const url = new URL(link, "http://x");
    const token = url.searchParams.get("token")!;
    const [header, payload, signature] = token.split(".") as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, "base64url").toString());
    const forged = Buffer.from(JSON.stringify({ ...claims, exp: claims.exp + 3600, sub: String(Number(claims.sub) + 1) })).toString(
      "base64url",
    );
    expect((await ctx.app.inject({ method: "GET", url: link })).statusCode).toBe(200);
    const tampered = [
      `${url.pathname}?token=${header}.${forged}.${signature}`,
      `${url.pathname}?token=${header}.${payload}.${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`,
      `${url.pathname}?token=${token.slice(0, -2)}`,
      url.pathname,
    ];
    for (const candidate of tampered) expect((await ctx.app.inject({ method: "GET", url: candidate })).statusCode).toBe(403);
  });

  it("works on another instance sharing the secret (the link carries everything it needs)", async () => {
    const file = await aFile();
    const link = (await ctx.app.inject({ method: "GET", url: api(`/files/${file.path}`), headers: bearer(tokens.patient) })).json()
      .url as string;
    const { buildApp } = await import("../../server/app.ts");
    const other = await buildApp({ config: ctx.config, db: ctx.db, logger: false });
    try {
      expect((await other.inject({ method: "GET", url: link })).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});
