import Fastify from "fastify";
import { SignJWT } from "jose";
import { describe, expect, it, vi } from "vitest";
import { randomToken, registerAccessTokens, sha256, type AccessTokens } from "./tokens.ts";

// Tokens are crafted with jose (an independent implementation) and checked by the portal's @fastify/jwt verifier.
const verifiers = new Map<string, Promise<AccessTokens>>();
const tokensFor = (key: string) => {
  if (!verifiers.has(key)) verifiers.set(key, registerAccessTokens(Fastify(), key, 5));
  return verifiers.get(key)!;
};
const sid = "sesion-de-prueba-0001";
const signAccessToken = async (key: string, claims: { userId: number; tokenVersion: number }) =>
  (await tokensFor(key)).sign({ ...claims, sessionId: sid });
const verifyAccessToken = async (key: string, token: string) => (await tokensFor(key)).verify(token);

const secret = "s".repeat(40);
const key = new TextEncoder().encode(secret);

describe("access tokens", () => {
  it("round-trips the user id, token version and session id", async () => {
    const token = await signAccessToken(secret, { userId: 7, tokenVersion: 3 });
    expect(await verifyAccessToken(secret, token)).toEqual({ userId: 7, tokenVersion: 3, sessionId: sid });
  });

  it("refuses a validly signed token without an expiry or an issue time (it would never expire)", async () => {
    const base = () =>
      new SignJWT({ ver: 0, typ: "access", sid }).setProtectedHeader({ alg: "HS256" }).setSubject("7").setIssuer("portal-pacientes");
    expect(await verifyAccessToken(secret, await base().setIssuedAt().sign(key))).toBeNull();
    expect(await verifyAccessToken(secret, await base().setExpirationTime("5m").sign(key))).toBeNull();
    expect(await verifyAccessToken(secret, await base().setIssuedAt().setExpirationTime("5m").sign(key))).not.toBeNull();
  });

  it("refuses a validly signed token without an issuer, without a session, or issued in the future beyond the clock skew", async () => {
    const now = Math.floor(Date.now() / 1000);
    const signed = (claims: object, build: (jwt: SignJWT) => SignJWT) =>
      build(new SignJWT({ ver: 0, typ: "access", ...claims }).setProtectedHeader({ alg: "HS256" }).setSubject("7")).sign(key);
    const withIssuer = (jwt: SignJWT) => jwt.setIssuer("portal-pacientes");
    expect(await verifyAccessToken(secret, await signed({ sid }, (jwt) => jwt.setIssuedAt().setExpirationTime("5m")))).toBeNull();
    expect(await verifyAccessToken(secret, await signed({}, (jwt) => withIssuer(jwt).setIssuedAt().setExpirationTime("5m")))).toBeNull();
    const monthAhead = await signed({ sid }, (jwt) =>
      withIssuer(jwt)
        .setIssuedAt(now + 30 * 86_400)
        .setExpirationTime(now + 31 * 86_400),
    );
    expect(await verifyAccessToken(secret, monthAhead)).toBeNull();
    const withinSkew = await signed({ sid }, (jwt) =>
      withIssuer(jwt)
        .setIssuedAt(now + 30)
        .setExpirationTime("5m"),
    );
    expect(await verifyAccessToken(secret, withinSkew)).not.toBeNull();
  });

  it("refuses an expired token", async () => {
    const expired = await new SignJWT({ ver: 0, typ: "access", sid })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("7")
      .setIssuer("portal-pacientes")
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(key);
    expect(await verifyAccessToken(secret, expired)).toBeNull();
  });

  it("refuses another algorithm, another key, another issuer or a token of another type", async () => {
    const claims = new SignJWT({ ver: 0, typ: "access", sid }).setSubject("7").setIssuer("portal-pacientes").setExpirationTime("5m");
    const hs512 = await claims.setProtectedHeader({ alg: "HS512" }).sign(new TextEncoder().encode("s".repeat(64)));
    expect(await verifyAccessToken("s".repeat(64), hs512)).toBeNull();
    expect(await verifyAccessToken("otra-clave-".repeat(4), await signAccessToken(secret, { userId: 7, tokenVersion: 0 }))).toBeNull();
    const foreign = await new SignJWT({ ver: 0, typ: "access", sid })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("7")
      .setIssuer("otro")
      .setExpirationTime("5m")
      .sign(key);
    expect(await verifyAccessToken(secret, foreign)).toBeNull();
    const reset = await new SignJWT({ ver: 0, typ: "reset" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("7")
      .setIssuer("portal-pacientes")
      .setExpirationTime("5m")
      .sign(key);
    expect(await verifyAccessToken(secret, reset)).toBeNull();
  });

  it("issues HS256 tokens with the issuer, a subject, an issue time and an expiry of the configured length", async () => {
    const token = await signAccessToken(secret, { userId: 7, tokenVersion: 3 });
    const [header, payload] = token
      .split(".")
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, "base64url").toString()) as Record<string, unknown>);
    expect(header).toMatchObject({ alg: "HS256", typ: "JWT" });
    expect(payload).toMatchObject({ sub: "7", ver: 3, sid, typ: "access", iss: "portal-pacientes" });
    expect(Number(payload!.exp) - Number(payload!.iat)).toBe(5 * 60);
  });

  it("refuses a cached token once it has expired (the verified-token cache never outlives a token)", async () => {
    const soon = await new SignJWT({ ver: 0, typ: "access", sid })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("7")
      .setIssuer("portal-pacientes")
      .setIssuedAt()
      .setExpirationTime(Math.floor(Date.now() / 1000) + 2)
      .sign(key);
    expect(await verifyAccessToken(secret, soon)).not.toBeNull();
    // Three seconds later on a fake clock (fast-jwt and the verified-token cache read Date.now()), not after a real three-second sleep.
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(Date.now() + 3_000);
      expect(await verifyAccessToken(secret, soon)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it("refuses an unsigned token (alg none) and garbage", async () => {
    const body = Buffer.from(
      JSON.stringify({ sub: "7", ver: 0, sid, typ: "access", iss: "portal-pacientes", exp: Math.floor(Date.now() / 1000) + 300 }),
    ).toString("base64url");
    const none = `${Buffer.from(JSON.stringify({ alg: "none" })).toString("base64url")}.${body}.`;
    expect(await verifyAccessToken(secret, none)).toBeNull();
    expect(await verifyAccessToken(secret, "a.b.c")).toBeNull();
  });
});

describe("reset tokens", () => {
  it("are 256 random bits, URL-safe, different every time, and stored only as a SHA-256 hash", () => {
    const tokens = new Set(Array.from({ length: 100 }, randomToken));
    expect(tokens.size).toBe(100);
    for (const token of tokens) expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(sha256("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
