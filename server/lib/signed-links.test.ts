import { describe, expect, it } from "vitest";
import { signLink, stillValidFor, verifyLink, type SignedLink } from "./signed-links.ts";

const config = { JWT_SECRET: "a-test-secret-that-is-long-enough-for-hs256" };
const link: SignedLink = { userId: 7, tokenVersion: 3, purpose: "bill-file", ref: "0b6f0c1e" };
const at = (iso: string) => new Date(iso);

describe("signed links", () => {
  it("gives back what it signed, until it expires", async () => {
    const token = await signLink(config, link, 300, at("2026-01-01T10:00:00Z"));
    expect(await verifyLink(config, token, ["bill-file"], at("2026-01-01T10:04:59Z"))).toEqual(link);
    expect(await verifyLink(config, token, ["bill-file"], at("2026-01-01T10:05:01Z"))).toBeNull();
  });

  it("refuses another purpose, another secret and an altered token", async () => {
    const token = await signLink(config, link, 300);
    expect(await verifyLink(config, token, ["lab-report", "imaging-report"])).toBeNull();
    expect(await verifyLink({ JWT_SECRET: `${config.JWT_SECRET}!` }, token, ["bill-file"])).toBeNull();
    const [header, , signature] = token.split(".");
    const payload = Buffer.from(JSON.stringify({ sub: "8", ver: 3, pur: "bill-file", ref: link.ref })).toString("base64url");
    expect(await verifyLink(config, `${header}.${payload}.${signature}`, ["bill-file"])).toBeNull();
  });

  it("is still valid only for the same user at the same token version", () => {
    expect(stillValidFor(link, { id: 7, tokenVersion: 3 })).toBe(true);
    expect(stillValidFor(link, { id: 7, tokenVersion: 4 })).toBe(false);
    expect(stillValidFor(link, { id: 8, tokenVersion: 3 })).toBe(false);
    expect(stillValidFor(link, null)).toBe(false);
  });
});
