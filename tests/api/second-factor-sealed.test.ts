import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizeRut } from "../../server/contract/rut.ts";
import { createUser } from "../../server/db/users.repository.ts";
import { sealStoredTotpSecrets } from "../../server/features/auth/totp-secrets.ts";
import { loadConfig } from "../../server/config.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { demoTotpSecrets, totpCode } from "../helpers/second-factor.ts";
import { rutOf } from "../helpers/fixtures.ts";

// Issue 42, point 9: the second factor's TOTP secrets are sealed at rest, so a dump of the database alone gives no
// codes; secrets stored in clear before (the seed, an older version) are sealed at start, and a rotated key still
// opens what the old one sealed until the next start re-seals it.

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
}, 120_000);
afterAll(async () => ctx.close());

const post = (url: string, token: string, payload?: object) =>
  ctx.app.inject({ method: "POST", url: api(url), headers: bearer(token), ...(payload ? { payload } : {}) });
const stored = (rut: string) =>
  ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: normalizeRut(rut) }, select: { totpSecret: true, totpPendingSecret: true } });
/** Everything the users table holds, as a dump would show it. */
const dump = async () => JSON.stringify(await ctx.db.prisma.user.findMany());
const withKeys = (keys: Record<string, string>) => ({
  prisma: ctx.db.prisma,
  config: loadConfig({ NODE_ENV: "test" }, { ...keys, JWT_SECRET: ctx.config.JWT_SECRET }),
});

describe("TOTP secrets at rest", () => {
  it("an enrolment stores its secret sealed: neither the pending nor the active secret is in the table", async () => {
    const rut = rutOf(42_900_001);
    await createUser(
      ctx.db.prisma,
      {
        rut: normalizeRut(rut),
        email: "sellado@correo.cl",
        roleType: 1,
        firstName: "Sofía",
        lastName: "Sellada",
        secondLastName: "Prueba",
        password: "Propia2026x",
        state: { hasChangedPassword: true, dateTyc: new Date() },
        privileges: ["hcs-rcr"],
      },
      { id: true },
    );
    const passwordStep = (await ctx.passwordStep(rut, "Propia2026x", "staff")).accessToken;
    const setup = await post("/auth/second-factor/setup", passwordStep);
    expect(setup.statusCode).toBe(200);
    const { secret } = setup.json().payload as { secret: string };
    expect((await stored(rut)).totpPendingSecret).not.toContain(secret);
    expect(await dump()).not.toContain(secret);
    expect((await post("/auth/second-factor/confirm", passwordStep, { code: await totpCode(secret) })).statusCode).toBe(200);
    expect(await dump()).not.toContain(secret);

    const second = await ctx.passwordStep(rut, "Propia2026x", "staff");
    expect((await post("/auth/verify-otp", second.accessToken, { code: await totpCode(secret, 1) })).statusCode).toBe(200);
  });

  it("secrets stored in clear (the seed) are sealed at start, and the demo staff's codes still work", async () => {
    await ctx.db.prisma.user.update({
      where: { rut: normalizeRut(demo.executive.rut) },
      data: { totpSecret: demoTotpSecrets.executive, totpLastStep: null },
    });
    expect(await dump()).toContain(demoTotpSecrets.executive);
    expect(await sealStoredTotpSecrets(withKeys({}))).toBeGreaterThan(0);
    expect(await dump()).not.toContain(demoTotpSecrets.executive);
    expect(await sealStoredTotpSecrets(withKeys({}))).toBe(0);
    const step = await ctx.passwordStep(demo.executive.rut, demo.executive.password, "staff");
    expect((await post("/auth/verify-otp", step.accessToken, { code: await totpCode(demoTotpSecrets.executive) })).statusCode).toBe(200);
  });

  it("after a key rotation the old key still opens the secrets, and the next start re-seals them with the new one", async () => {
    const oldKey = "clave-antigua-del-segundo-factor-0123456789";
    const newKey = "clave-nueva-del-segundo-factor-9876543210abc";
    const rut = demo.executive.rut;
    // From the default key (derived from JWT_SECRET) to a key of its own, then to another.
    await sealStoredTotpSecrets(withKeys({ SECOND_FACTOR_KEY: oldKey, SECOND_FACTOR_KEY_PREVIOUS: ctx.config.JWT_SECRET }));
    const sealedWithOld = (await stored(rut)).totpSecret;
    // Without the previous key, the new one cannot open what the old one sealed: the start says so instead of guessing.
    await expect(sealStoredTotpSecrets(withKeys({ SECOND_FACTOR_KEY: newKey }))).rejects.toThrow(/SECOND_FACTOR_KEY_PREVIOUS/);
    expect(await sealStoredTotpSecrets(withKeys({ SECOND_FACTOR_KEY: newKey, SECOND_FACTOR_KEY_PREVIOUS: oldKey }))).toBeGreaterThan(0);
    const sealedWithNew = (await stored(rut)).totpSecret;
    expect(sealedWithNew).not.toBe(sealedWithOld);
    // Now the new key alone opens every secret: nothing is left to re-seal.
    expect(await sealStoredTotpSecrets(withKeys({ SECOND_FACTOR_KEY: newKey }))).toBe(0);
  });
});
