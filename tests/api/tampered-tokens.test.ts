import Fastify from "fastify";
import fastifyJwt from "@fastify/jwt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tamperedSignature } from "../helpers/tampered.ts";

// How the tests alter a signed token (tests/helpers/tampered.ts). auth-rate-limit once failed because its "altered"
// device cookie (the last two characters replaced) still verified: the last character of an HS256 signature carries
// four bits, and the other two are ignored when it is decoded.

const app = Fastify();
beforeAll(async () => {
  await app.register(fastifyJwt, { secret: "a-secret-for-this-test-only-0123456789" });
  await app.ready();
});
afterAll(() => app.close());

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const verifies = (token: string) => {
  try {
    app.jwt.verify(token);
    return true;
  } catch {
    return false;
  }
};

describe("altering a signed token in a test", () => {
  it("a token whose last character differs only in the bits it does not carry still verifies: changing the end is no alteration", () => {
    const token = app.jwt.sign({ sub: "device", jti: "n" });
    const last = BASE64URL.indexOf(token.at(-1)!);
    const sameBytes = `${token.slice(0, -1)}${BASE64URL[last ^ 1]}`;
    expect(sameBytes).not.toBe(token);
    expect(verifies(sameBytes)).toBe(true);
  });

  it("tamperedSignature always gives a token that does not verify (200 tokens)", () => {
    for (let i = 0; i < 200; i++) {
      const token = app.jwt.sign({ sub: "device", jti: String(i) });
      expect(verifies(token)).toBe(true);
      expect(verifies(tamperedSignature(token)), token).toBe(false);
    }
  });
});
