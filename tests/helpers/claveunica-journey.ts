import { expect } from "vitest";
import { CookieBrowser, type BrowserStep } from "./claveunica-browser.ts";
import { api, createTestContext, type TestContext } from "./test-app.ts";
import { FLOW_COOKIE, HANDOFF_COOKIE } from "../../server/features/claveunica/claveunica-flow.ts";
import { CLAVEUNICA_DEMO_PASSWORD } from "../../mocks/claveunica/identities.ts";
import { mockClient } from "../../mocks/claveunica/claveunica-mock.ts";

// Sign-in with ClaveÚnica (issue 43) in tests: a portal configured against the ClaveÚnica mock, and the steps of the
// flow over HTTP (the portal by app.inject, the mock through a cookie-keeping browser), each one open to tampering.

export const SUR = "clinicasur.localhost:4200";

export function contextWith(issuerPath: string): Promise<TestContext> {
  return createTestContext({
    CLAVEUNICA_ISSUER: `{mocks}${issuerPath}`,
    CLAVEUNICA_CLIENT_ID: mockClient.clientId,
    CLAVEUNICA_CLIENT_SECRET: mockClient.clientSecret,
  });
}

export function cookieFrom(setCookie: string | string[] | undefined, name: string): string | undefined {
  const lines = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  const line = lines.find((item) => item.startsWith(`${name}=`));
  const value = line?.split(";")[0]?.slice(name.length + 1);
  return value || undefined;
}

export interface Journey {
  flowCookie: string;
  /** The provider's answer: where it sends the browser back (the portal's redirect URI with code and state). */
  back: BrowserStep;
}

export async function toProviderAndBack(ctx: TestContext, run: string, options: { host?: string; next?: string } = {}): Promise<Journey> {
  const host = options.host ?? SUR;
  const start = await ctx.app.inject({
    method: "GET",
    url: `/claveunica/ingresar${options.next ? `?next=${encodeURIComponent(options.next)}` : ""}`,
    headers: { host },
  });
  expect(start.statusCode).toBe(303);
  const flowCookie = cookieFrom(start.headers["set-cookie"], FLOW_COOKIE)!;
  expect(flowCookie).toBeTruthy();
  const browser = new CookieBrowser();
  const loginPage = await browser.follow(start.headers.location!);
  const back = await browser.signInAtProvider(loginPage, run, CLAVEUNICA_DEMO_PASSWORD, `http://${host}/claveunica/retorno`);
  return { flowCookie, back };
}

export async function callback(ctx: TestContext, journey: Journey, options: { host?: string; flowCookie?: string | null } = {}) {
  const url = new URL(journey.back.location!);
  const flowCookie = options.flowCookie === undefined ? journey.flowCookie : options.flowCookie;
  return ctx.app.inject({
    method: "GET",
    url: `${url.pathname}${url.search}`,
    headers: { host: options.host ?? url.host, ...(flowCookie ? { cookie: `${FLOW_COOKIE}=${flowCookie}` } : {}) },
  });
}

export async function handOver(ctx: TestContext, answer: Awaited<ReturnType<typeof callback>>) {
  const handoff = cookieFrom(answer.headers["set-cookie"], HANDOFF_COOKIE);
  return ctx.app.inject({
    method: "POST",
    url: api("/auth/claveunica/session"),
    headers: handoff ? { cookie: `${HANDOFF_COOKIE}=${handoff}` } : {},
  });
}
