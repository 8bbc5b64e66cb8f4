import type { FastifyInstance } from "fastify";
import { generate } from "otplib";
import { API_PREFIX } from "../../server/app.ts";
import { demoAccounts, demoTotpSecrets } from "../../server/db/seed.ts";
import { normalizeRut } from "../../server/contract/rut.ts";

// The second factor in tests (issue 27): the code an authenticator app would show, computed from a secret (the demo
// staff's fixed development secrets of the README, or one a test enrolled).

export { demoTotpSecrets };

/** The secret of the staff that test fixtures insert (insertUser): staff cannot use the staff pages without one. */
export const fixtureTotpSecret = "FIXTURESTAFFTOTPSECRETFORTESTSAA";

/** The demo account's TOTP secret by RUT (any format), or undefined for accounts seeded without one. */
export function demoTotpSecret(rut: string): string | undefined {
  return demoAccounts.find((account) => normalizeRut(account.rut) === normalizeRut(rut))?.totpSecret;
}

/** The 6-digit code of the secret at a time (now by default; `stepOffset` moves it by 30-second steps). */
export function totpCode(secret: string, stepOffset = 0, at: number = Date.now()): Promise<string> {
  return generate({ secret, epoch: Math.floor(at / 1000) + stepOffset * 30 });
}

/** Sets up the second factor of the token's person through the API, as the enrolment screen does; returns the secret. */
export async function enrolSecondFactor(app: FastifyInstance, token: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const headers = { authorization: `Bearer ${token}` };
  const setup = await app.inject({ method: "POST", url: `${API_PREFIX}/auth/second-factor/setup`, headers });
  if (setup.statusCode !== 200) throw new Error(`second-factor setup failed: ${setup.statusCode} ${setup.body}`);
  const { secret } = (setup.json() as { payload: { secret: string } }).payload;
  const confirm = await app.inject({
    method: "POST",
    url: `${API_PREFIX}/auth/second-factor/confirm`,
    headers,
    payload: { code: await totpCode(secret) },
  });
  if (confirm.statusCode !== 200) throw new Error(`second-factor confirm failed: ${confirm.statusCode} ${confirm.body}`);
  return { secret, recoveryCodes: (confirm.json() as { payload: { recoveryCodes: string[] } }).payload.recoveryCodes };
}
