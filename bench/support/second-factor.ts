import { generate } from "otplib";
import pg from "pg";
import { normalizeRut } from "../../server/contract/rut.ts";
import { demoAccounts } from "../../server/db/seed.ts";

// Staff log in in two steps since issue 27: the bench completes the second with the demo account's published secret.
// A code works once per account, and the bench logs the same admin in more than once within a 30-second step: the
// last step used is forgotten first, as if the person had waited for the next code.

/** The verify-otp body for that demo account, after clearing its last used step on `databaseUrl`. */
export async function demoSecondStep(databaseUrl: string, rut: string): Promise<{ code: string }> {
  const secret = demoAccounts.find((account) => normalizeRut(account.rut) === normalizeRut(rut))?.totpSecret;
  if (!secret) throw new Error(`La cuenta ${rut} no tiene segundo factor de demostración`);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`UPDATE "User" SET "totpLastStep" = NULL WHERE rut = $1`, [normalizeRut(rut)]);
  } finally {
    await client.end();
  }
  return { code: await generate({ secret }) };
}
