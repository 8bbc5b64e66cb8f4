import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CookieBrowser } from "../../tests/helpers/claveunica-browser.ts";
import { buildMocksApp } from "../app.ts";
import { MailStore } from "../mail/mail-store.ts";
import { mockClient, PORTAL_CALLBACK_PATH } from "./claveunica-mock.ts";
import { CLAVEUNICA_DEMO_PASSWORD } from "./identities.ts";

// The certified relying party library against the mock over HTTP: what the portal does, step by step.

let app: FastifyInstance;
let origin: string;
const redirectUri = `http://clinica.localhost:4200${PORTAL_CALLBACK_PATH}`;

beforeAll(async () => {
  app = buildMocksApp({ mailStore: new MailStore() });
  await app.listen({ host: "127.0.0.1", port: 0 });
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(() => app.close());

async function discover(base = "/claveunica"): Promise<oidc.Configuration> {
  return oidc.discovery(new URL(`${origin}${base}`), mockClient.clientId, undefined, oidc.ClientSecretPost(mockClient.clientSecret), {
    execute: [oidc.allowInsecureRequests],
  });
}

async function startFlow(config: oidc.Configuration) {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: "openid run name email",
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  return { verifier, state, nonce, url };
}

describe("ClaveÚnica mock (oidc-provider) with openid-client", () => {
  it("publishes ClaveÚnica's discovery: issuer under /claveunica, code flow with S256, scopes openid run name email", async () => {
    const config = await discover();
    const metadata = config.serverMetadata();
    expect(metadata.issuer).toBe(`${origin}/claveunica`);
    expect(metadata.scopes_supported).toEqual(expect.arrayContaining(["openid", "run", "name", "email"]));
    expect(metadata.code_challenge_methods_supported).toContain("S256");
    expect(metadata.end_session_endpoint).toBe(`${origin}/claveunica/session/end`);
  });

  it("signs a person in with RUN and ClaveÚnica and answers ClaveÚnica's claims at userinfo", async () => {
    const config = await discover();
    const flow = await startFlow(config);
    const browser = new CookieBrowser();
    const loginPage = await browser.follow(flow.url.href);
    expect(loginPage.body).toContain("RUN");
    expect(loginPage.body).toContain("ClaveÚnica");
    const back = await browser.signInAtProvider(loginPage, "12.345.678-5", CLAVEUNICA_DEMO_PASSWORD, redirectUri);
    expect(back.location).toMatch(/^http:\/\/clinica\.localhost:4200\/claveunica\/retorno\?code=/);

    const tokens = await oidc.authorizationCodeGrant(config, new URL(back.location!), {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
    });
    const claims = tokens.claims()!;
    expect(claims.iss).toBe(`${origin}/claveunica`);
    expect(claims.aud).toBe(mockClient.clientId);
    const userInfo = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(userInfo).toMatchObject({
      RolUnico: { numero: 12345678, DV: "5", tipo: "RUN" },
      name: { nombres: ["María"], apellidos: ["González", "Pérez"] },
      email: "paciente@portalpacientes.cl",
    });
  });

  it("refuses a wrong ClaveÚnica at its login page and sends nobody back", async () => {
    const config = await discover();
    const flow = await startFlow(config);
    const browser = new CookieBrowser();
    const loginPage = await browser.follow(flow.url.href);
    const refused = await browser.signInAtProvider(loginPage, "12.345.678-5", "otra-clave", redirectUri);
    expect(refused.location).toBeNull();
    expect(refused.body).toContain("RUN o ClaveÚnica incorrectos.");
  });

  it("answers access_denied to the portal when the person cancels", async () => {
    const config = await discover();
    const flow = await startFlow(config);
    const browser = new CookieBrowser();
    const back = await browser.cancelAtProvider(await browser.follow(flow.url.href), redirectUri);
    expect(new URL(back.location!).searchParams.get("error")).toBe("access_denied");
  });

  it("gives a code once: the second exchange is refused", async () => {
    const config = await discover();
    const flow = await startFlow(config);
    const browser = new CookieBrowser();
    const back = await browser.signInAtProvider(await browser.follow(flow.url.href), "15.555.555-6", CLAVEUNICA_DEMO_PASSWORD, redirectUri);
    const checks = { pkceCodeVerifier: flow.verifier, expectedState: flow.state, expectedNonce: flow.nonce };
    await oidc.authorizationCodeGrant(config, new URL(back.location!), checks);
    await expect(oidc.authorizationCodeGrant(config, new URL(back.location!), checks)).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a redirect URI outside the portal's callback", async () => {
    const config = await discover();
    const flow = await startFlow(config);
    flow.url.searchParams.set("redirect_uri", "https://atacante.example/callback");
    const answer = await new CookieBrowser().request(flow.url.href);
    expect(answer.location).toBeNull();
    expect(answer.status).toBe(400);
  });

  it("under /fallas/caida answers 503 to discovery", async () => {
    await expect(discover("/fallas/caida/claveunica")).rejects.toThrow();
    expect((await fetch(`${origin}/fallas/caida/claveunica/.well-known/openid-configuration`)).status).toBe(503);
  });

  it("under /fallas/firma-ajena signs ID tokens with a key its JWKS does not publish, which openid-client rejects", async () => {
    const config = await discover("/fallas/firma-ajena/claveunica");
    // openid-client checks an ID token's signature against the provider's JWKS only when asked to; the portal asks.
    oidc.enableNonRepudiationChecks(config);
    const flow = await startFlow(config);
    const browser = new CookieBrowser();
    const back = await browser.signInAtProvider(await browser.follow(flow.url.href), "12.345.678-5", CLAVEUNICA_DEMO_PASSWORD, redirectUri);
    await expect(
      oidc.authorizationCodeGrant(config, new URL(back.location!), {
        pkceCodeVerifier: flow.verifier,
        expectedState: flow.state,
        expectedNonce: flow.nonce,
      }),
    ).rejects.toThrow(/JWT verification key/i);
  });
});
