import { SignJWT, UnsecuredJWT, base64url } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { normalizeRut } from "../../server/contract/rut.ts";
import { api, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

// Forged, altered and incomplete access tokens for the admin account: every one answers 401 on REST and tRPC.

let ctx: TestContext;
let adminId: number;
/** The session of a real login: forged tokens carry it, so each refusal below is about the attack, not the session. */
let sid: string;
beforeAll(async () => {
  ctx = await createTestContext();
  adminId = (await ctx.db.prisma.user.findUniqueOrThrow({ where: { rut: normalizeRut(demo.admin.rut) } })).id;
  const token = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
  sid = (JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { sid: string }).sid;
});
afterAll(() => ctx.close());

const now = () => Math.floor(Date.now() / 1000);
const claims = () => ({ ver: 0, typ: "access", sid });
const key = (secret: string) => new TextEncoder().encode(secret);

async function attacks(): Promise<Record<string, string>> {
  const secret = ctx.config.JWT_SECRET;
  const valid = await new SignJWT(claims())
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(adminId))
    .setIssuer("portal-pacientes")
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(key(secret));
  const [header, payload] = valid.split(".") as [string, string, string];
  const json = (value: object) => base64url.encode(JSON.stringify(value));
  const base = () => new SignJWT(claims()).setSubject(String(adminId)).setIssuer("portal-pacientes");
  return {
    "alg none": new UnsecuredJWT(claims())
      .setSubject(String(adminId))
      .setIssuer("portal-pacientes")
      .setIssuedAt()
      .setExpirationTime("5m")
      .encode(),
    "alg none with the real payload": `${json({ alg: "none", typ: "JWT" })}.${payload}.`,
    "another key": await base()
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(key("otra-clave-".repeat(5))),
    "algorithm swap to HS512 with the real secret": await base()
      .setProtectedHeader({ alg: "HS512" })
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(key(secret.padEnd(64, "x"))),
    "RS256 header on an HMAC signature": `${json({ alg: "RS256", typ: "JWT" })}.${payload}.${valid.split(".")[2]}`,
    "payload altered after signing": `${header}.${json({ ...claims(), sub: "1", iss: "portal-pacientes", exp: now() + 300, iat: now() })}.${valid.split(".")[2]}`,
    malformed: "no.es.un-token",
    "not even three parts": "abc",
    "garbage base64": "%%%.%%%.%%%",
    expired: await base()
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt(now() - 7200)
      .setExpirationTime(now() - 60)
      .sign(key(secret)),
    "without exp": await base().setProtectedHeader({ alg: "HS256" }).setIssuedAt().sign(key(secret)),
    "without iat": await base().setProtectedHeader({ alg: "HS256" }).setExpirationTime("5m").sign(key(secret)),
    "without iss": await new SignJWT(claims())
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(adminId))
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(key(secret)),
    "iat a month in the future": await base()
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt(now() + 30 * 86_400)
      .setExpirationTime(now() + 31 * 86_400)
      .sign(key(secret)),
    "without a session": await new SignJWT({ ver: 0, typ: "access" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(adminId))
      .setIssuer("portal-pacientes")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(key(secret)),
    "a session that does not exist": await new SignJWT({ ver: 0, typ: "access", sid: "no-existe-esta-sesion" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(adminId))
      .setIssuer("portal-pacientes")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(key(secret)),
    "a reset-link type": await new SignJWT({ ver: 0, typ: "reset" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(adminId))
      .setIssuer("portal-pacientes")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(key(secret)),
  };
}

describe("token attacks", () => {
  it("the unaltered token works (so the refusals below are about the attack, not the set-up)", async () => {
    const token = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    const forged = await new SignJWT(claims())
      .setProtectedHeader({ alg: "HS256" })
      .setSubject(String(adminId))
      .setIssuer("portal-pacientes")
      .setIssuedAt()
      .setExpirationTime("5m")
      .sign(key(ctx.config.JWT_SECRET));
    const withSecret = await ctx.app.inject({ method: "GET", url: api("/auth/me"), headers: { authorization: `Bearer ${forged}` } });
    expect(withSecret.statusCode).toBe(200);
    const response = await ctx.app.inject({ method: "GET", url: api("/auth/me"), headers: { authorization: `Bearer ${token}` } });
    expect(response.statusCode).toBe(200);
  });

  it("alg none, another key, algorithm swap, altered, malformed, expired and incomplete tokens answer 401", async () => {
    for (const [attack, token] of Object.entries(await attacks())) {
      const authorization = `Bearer ${token}`;
      const rest = await ctx.app.inject({ method: "GET", url: api("/admin/filter/users"), headers: { authorization } });
      const trpc = await ctx.app.inject({ method: "GET", url: "/trpc/users.list?input=%7B%7D", headers: { authorization } });
      expect(rest.statusCode, attack).toBe(401);
      expect(trpc.statusCode, attack).toBe(401);
      expect(rest.json().message, attack).toBe("Su sesión no es válida o ha expirado. Ingrese nuevamente.");
    }
  });
});
