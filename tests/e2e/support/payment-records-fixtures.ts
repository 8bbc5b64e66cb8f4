import type { PrismaClient } from "../../../server/generated/prisma/client.ts";
import { hashPassword } from "../../../server/lib/passwords.ts";
import { createBill, plainRutOf, rutOf } from "../../helpers/fixtures.ts";
import { payAtForm, testCards } from "../../helpers/payments-fixtures.ts";
import { e2eBaseUrl, e2eMocksUrl, e2ePorts } from "./ports.ts";

// Issue 28's browser tests: a patient of the South clinic whose bills are paid (or refused) through the portal's REST
// API and the Webpay mock's form before the screens are opened: receipts, 'Historial de pagos' and 'Anular pago'.

const rutBody = "19876555";
export const recordsPatient = { rut: rutOf(rutBody), password: "Recibos2026", email: "recibos.e2e@correo.cl" } as const;

/** Bills by account code, one set per screen width (each width's tests change their own bills). */
export const recordBills = (width: number) => {
  const base = width < 1024 ? 720_100 : 720_200;
  return {
    receipt: { accountCode: String(base + 1), amount: 45_990 },
    refund: { accountCode: String(base + 2), amount: 33_500 },
    refundFails: { accountCode: String(base + 3), amount: 12_345 },
    rejected: { accountCode: String(base + 4), amount: 7_990 },
    /** Marked paid by staff, with no card payment: it has no receipt. */
    markedPaid: { accountCode: String(base + 5), amount: 5_000, isPaid: true },
  };
};

export async function seedPaymentRecordFixtures(prisma: PrismaClient): Promise<void> {
  const user = await prisma.user.create({
    data: {
      rut: plainRutOf(rutBody),
      email: recordsPatient.email,
      firstName: "Rebeca",
      lastName: "Recibo",
      secondLastName: "Prueba",
      phoneNumber: "+56911113333",
      birthDate: new Date("1982-03-04T00:00:00Z"),
      roleType: 2,
      passwordHash: await hashPassword(recordsPatient.password),
      hasChangedPassword: true,
      dateTyc: new Date("2026-01-05T12:00:00Z"),
      patientClinics: { create: [{ codeClinicStr: "hcs-rcr" }] },
    },
  });
  for (const width of [375, 1280]) {
    for (const bill of Object.values(recordBills(width))) {
      await createBill(prisma, user.rut, { ...bill, day: "2026-03-01" });
    }
  }
}

const apiUrl = (path: string) => `${e2eBaseUrl}/api/rcr/v1${path}`;

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
  const body = (await response.json()) as { payload?: T } & T;
  return body.payload ?? body;
}

/**
 * Pays the width's bills as the patient would (start, the mock's form, commit on return): the receipt and refund
 * bills with the approved VISA, the last one with the rejected Mastercard. Bills already settled are left as they are.
 */
export async function payRecordBills(width: number): Promise<Record<string, number>> {
  const login = await json<{ accessToken: string }>(
    await fetch(apiUrl("/auth/new-login"), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rut: recordsPatient.rut, password: recordsPatient.password }),
    }),
  );
  const headers = { authorization: `Bearer ${login.accessToken}`, "content-type": "application/json" };
  const page = await json<{ accounts: Array<{ id: number; accountCode: string; isPaid: boolean }> }>(
    await fetch(apiUrl(`/files/accounts/${plainRutOf(rutBody)}?limit=10&page=1`), { headers }),
  );
  const ids: Record<string, number> = {};
  for (const [name, bill] of Object.entries(recordBills(width))) {
    const stored = page.accounts.find((account) => account.accountCode === bill.accountCode);
    if (!stored) throw new Error(`bill ${bill.accountCode} not seeded`);
    ids[name] = stored.id;
    if (stored.isPaid) continue;
    const started = await fetch(apiUrl("/payment/generate-transaction-new-prod"), {
      method: "POST",
      headers,
      body: JSON.stringify({ accountId: stored.id, rcrLink: `http://clinicasur.localhost:${e2ePorts.portal}` }),
    });
    if (started.status === 409) continue;
    const { token } = await json<{ token: string }>(started);
    await payAtForm(e2eMocksUrl, token, name === "rejected" ? testCards.mastercardRejected : testCards.visaApproved);
    await json(await fetch(apiUrl(`/payment/new-commit-prod?token_ws=${token}`), { headers }));
  }
  return ids;
}
