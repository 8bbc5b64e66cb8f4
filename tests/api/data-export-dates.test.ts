import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { extractText, getDocumentProxy } from "unpdf";
import { formatUtcDay } from "../../web/src/lib/dates.ts";
import { unzip } from "../helpers/unzip.ts";
import { createBill, insertUser, plainRutOf } from "../helpers/fixtures.ts";
import { api, bearer, createTestContext, type TestContext } from "../helpers/test-app.ts";

// Issue 45 §1: a bill's date is a calendar day. In datos.json, resumen.pdf and 'Cuentas hospitalarias' it is the same
// day, whatever the server's time zone (Santiago, one far ahead of UTC, one far behind) — never the day before.

let ctx: TestContext;
let token = "";
const rut = plainRutOf(32450001);
const billDays = ["2025-12-08", "2025-01-01", "2024-06-30"];
const serverZone = process.env.TZ;

beforeAll(async () => {
  ctx = await createTestContext();
  await insertUser(ctx.db.prisma, { rut, email: "fechas@correo.cl", roleType: 2, password: "Paciente2026", firstName: "Fechas" });
  await ctx.db.prisma.user.update({ where: { rut }, data: { birthDate: new Date("1985-02-14T00:00:00Z") } });
  for (const day of billDays) await createBill(ctx.db.prisma, rut, { day });
  token = await ctx.login(rut, "Paciente2026");
});
afterEach(() => {
  if (serverZone === undefined) delete process.env.TZ;
  else process.env.TZ = serverZone;
});
afterAll(() => ctx.close());

async function exportOf(): Promise<Map<string, Buffer>> {
  // One export an hour: the earlier one of this test is forgotten so each zone prepares its own.
  await ctx.db.prisma.dataExport.deleteMany({});
  const asked = await ctx.app.inject({ method: "POST", url: api("/patient/data-export"), headers: bearer(token) });
  expect(asked.statusCode).toBe(200);
  await ctx.app.deps.background.settled();
  const ready = await ctx.app.inject({ method: "GET", url: api("/patient/data-export"), headers: bearer(token) });
  const download = await ctx.app.inject({ method: "GET", url: ready.json().payload.latest.downloadUrl });
  expect(download.statusCode).toBe(200);
  return unzip(download.rawPayload);
}

describe.each(["America/Santiago", "Pacific/Kiritimati", "Pacific/Pago_Pago"])("with the server in %s", (zone) => {
  it("writes each bill's date as the same day in datos.json, resumen.pdf and 'Cuentas hospitalarias'", async () => {
    process.env.TZ = zone;
    const files = await exportOf();
    const datos = JSON.parse(files.get("datos.json")!.toString("utf8"));
    const list = await ctx.app.inject({ method: "GET", url: api(`/files/accounts/${rut}`), headers: bearer(token) });
    const shown = new Map<string, string>(
      list
        .json()
        .accounts.map((bill: { accountCode: string; createAccountIdDate: string }) => [
          bill.accountCode,
          formatUtcDay(bill.createAccountIdDate),
        ]),
    );
    const pdf = await getDocumentProxy(new Uint8Array(files.get("resumen.pdf")!));
    const { text } = await extractText(pdf, { mergePages: true });

    expect(datos.bills.map((bill: { date: string }) => bill.date).sort()).toEqual([...billDays].sort());
    expect(datos.patient.birthDate).toBe("1985-02-14");
    expect(text).toContain("Fecha de nacimiento: 14-02-1985");
    for (const bill of datos.bills as Array<{ accountCode: string; date: string }>) {
      const day = bill.date.split("-").reverse().join("-");
      expect(shown.get(bill.accountCode)).toBe(day);
      expect(text).toContain(`cuenta ${bill.accountCode}, ${day}:`);
    }
    // Issue 45 §6: the terms as 'Mis datos' shows them (the fixture accepted them on 05-01-2026 12:00 UTC).
    expect(text).toContain("Fecha de aceptación: 05-01-2026 13:00:00");
    expect(text).not.toContain("Ninguno registrado");
    // The LEEME says so in plain words, and its technical note gives the format (issue 45 low list: plain words first).
    const readme = files.get("LEEME.txt")!.toString("utf8");
    expect(readme).toContain("son días del calendario: valen igual\nen cualquier país u hora");
    expect(readme).toContain("Los días van como AAAA-MM-DD, sin hora ni zona");
  });
});
