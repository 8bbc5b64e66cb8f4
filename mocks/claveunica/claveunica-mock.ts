import { generateKeyPairSync, randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from "fastify";
import Provider, { type Configuration, type JWK } from "oidc-provider";
import { html, htmlContentType, renderPage } from "../html.ts";
import { renderLoggedOutPage, renderLoginPage, renderLogoutPage } from "./claveunica-pages.ts";
import { CLAVEUNICA_DEMO_PASSWORD, claveUnicaIdentities, identityByRun, identityBySub, type ClaveUnicaIdentity } from "./identities.ts";

// ClaveÚnica, the State's OpenID Connect provider, as a real OpenID Provider (oidc-provider): discovery, authorization
// code with PKCE, ID tokens signed with the keys it publishes, userinfo with ClaveÚnica's claims (RolUnico, name, email),
// scopes `openid run name email`, and RP-initiated logout. Mounted under /claveunica (issuer http://<mocks>/claveunica),
// and under /fallas/caida/claveunica (down: 503 on every call) and /fallas/firma-ajena/claveunica (ID tokens signed with
// a key that its JWKS does not publish).

/** The portal's client at the mock: what .env.example's CLAVEUNICA_CLIENT_ID and CLAVEUNICA_CLIENT_SECRET hold. */
export const mockClient = { clientId: "portal-pacientes-demo", clientSecret: "claveunica-simulador-no-es-secreto" };

/** Where the portal receives the provider's answer, on every clinic's host. */
export const PORTAL_CALLBACK_PATH = "/claveunica/retorno";
export const PORTAL_LOGOUT_RETURN_PATH = "/login";

export type ClaveUnicaBehaviour = "normal" | "down" | "foreign-key";

export const claveUnicaBases: Record<ClaveUnicaBehaviour, string> = {
  normal: "/claveunica",
  down: "/fallas/caida/claveunica",
  "foreign-key": "/fallas/firma-ajena/claveunica",
};

export interface ClaveUnicaMockOptions {
  behaviour?: ClaveUnicaBehaviour;
  /** Origin the browser and the portal reach the mocks at; by default the request's own (http://<Host>). */
  publicUrl?: string;
  /** People the provider knows beyond the demo identities (the browser tests' own first-login patients). */
  extraIdentities?: readonly ClaveUnicaIdentity[];
}

const isLoopbackHost = (host: string) => host === "localhost" || host.endsWith(".localhost") || /^127\./.test(host) || host === "[::1]";

/**
 * The State registers exact redirect URIs per client. The mock stands for the State's sandbox on a developer's machine,
 * where each clinic's portal runs on a loopback host and a port chosen by the tests: it accepts the portal's callback
 * path on any loopback host and port, and nothing else.
 */
function portalAddressAllowed(value: string, path: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" && isLoopbackHost(url.hostname) && url.pathname === path && !url.hash && !url.username;
  } catch {
    return false;
  }
}

function signingKey(): JWK {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { ...(privateKey.export({ format: "jwk" }) as JWK), kid: randomBytes(8).toString("hex"), use: "sig", alg: "RS256" };
}

function publicPart(key: JWK): JWK {
  const { kty, n, e, kid, use, alg } = key;
  return { kty, n, e, kid, use, alg };
}

interface MountedProvider {
  provider: Provider;
  /** Public keys served at /jwks: the signing key's, or (foreign-key) another key's. */
  publishedKeys: JWK[];
}

function createProvider(issuer: string, behaviour: ClaveUnicaBehaviour, identities: readonly ClaveUnicaIdentity[]): MountedProvider {
  const key = signingKey();
  const configuration: Configuration = {
    clients: [
      {
        client_id: mockClient.clientId,
        client_secret: mockClient.clientSecret,
        client_name: "Portal Pacientes",
        redirect_uris: [`http://localhost:4200${PORTAL_CALLBACK_PATH}`],
        post_logout_redirect_uris: [`http://localhost:4200${PORTAL_LOGOUT_RETURN_PATH}`],
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    jwks: { keys: [key] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    claims: { openid: ["sub"], run: ["RolUnico"], name: ["name"], email: ["email"] },
    scopes: ["openid", "run", "name", "email"],
    pkce: { required: () => true },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: async (ctx, form) => {
          ctx.type = "html";
          ctx.body = renderLogoutPage(form);
        },
        postLogoutSuccessSource: async (ctx) => {
          ctx.type = "html";
          ctx.body = renderLoggedOutPage();
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `${new URL(issuer).pathname}/interaccion/${interaction.uid}` },
    findAccount: async (_ctx, sub) => {
      const identity = identityBySub(sub, identities);
      if (!identity) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, RolUnico: identity.RolUnico, name: identity.name, email: identity.email }),
      };
    },
    renderError: async (ctx, out) => {
      ctx.type = "html";
      ctx.body = renderPage(
        "ClaveÚnica – Error",
        html`<h1>No fue posible continuar con ClaveÚnica</h1>
          <p class="card error" role="alert">${out.error}: ${out.error_description ?? ""}</p>`,
      );
    },
  };
  const provider = new Provider(issuer, configuration);
  const { Client } = provider;
  Client.prototype.redirectUriAllowed = function (this: InstanceType<typeof Client>, value: string) {
    return this.redirectUris?.includes(value) || portalAddressAllowed(value, PORTAL_CALLBACK_PATH);
  };
  Client.prototype.postLogoutRedirectUriAllowed = function (this: InstanceType<typeof Client>, value: string) {
    return this.postLogoutRedirectUris?.includes(value) || portalAddressAllowed(value, PORTAL_LOGOUT_RETURN_PATH);
  };
  const publishedKeys = behaviour === "foreign-key" ? [publicPart(signingKey())] : [publicPart(key)];
  return { provider, publishedKeys };
}

async function readForm(request: IncomingMessage): Promise<URLSearchParams> {
  let body = "";
  for await (const chunk of request) {
    body += String(chunk);
    if (body.length > 10_000) break;
  }
  return new URLSearchParams(body);
}

function sendHtml(response: ServerResponse, status: number, page: string): void {
  response.statusCode = status;
  response.setHeader("Content-Type", htmlContentType);
  response.setHeader("Cache-Control", "no-store");
  response.end(page);
}

export const claveUnicaMock: FastifyPluginAsync<ClaveUnicaMockOptions> = async (app, options) => {
  const behaviour = options.behaviour ?? "normal";
  const basePath = claveUnicaBases[behaviour];
  const identities = [...claveUnicaIdentities, ...(options.extraIdentities ?? [])];
  const providers = new Map<string, MountedProvider>();

  const mountedFor = (request: FastifyRequest): MountedProvider => {
    const origin = options.publicUrl?.replace(/\/+$/, "") ?? `${request.protocol}://${request.headers.host ?? "localhost"}`;
    let mounted = providers.get(origin);
    if (!mounted) {
      mounted = createProvider(`${origin}${basePath}`, behaviour, identities);
      providers.set(origin, mounted);
    }
    return mounted;
  };

  // oidc-provider reads the bodies itself (form posts to /token, /userinfo, /session/end/confirm).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", (_request, _payload, done) => done(null, undefined));

  const handleInteraction = async (request: FastifyRequest<{ Params: { uid: string } }>, reply: FastifyReply, cancel: boolean) => {
    const { provider } = mountedFor(request);
    reply.hijack();
    const raw = request.raw;
    const response = reply.raw;
    let details;
    try {
      details = await provider.interactionDetails(raw, response);
    } catch {
      sendHtml(
        response,
        400,
        renderLoginPage({
          uid: request.params.uid,
          basePath,
          clientName: "el servicio",
          message: "La solicitud de ingreso expiró. Vuelva a intentarlo desde el sitio al que quería ingresar.",
        }),
      );
      return;
    }
    const clientName = "Portal Pacientes";
    if (request.method === "GET") {
      sendHtml(response, 200, renderLoginPage({ uid: details.uid, basePath, clientName }));
      return;
    }
    if (cancel) {
      await provider.interactionFinished(
        raw,
        response,
        { error: "access_denied", error_description: "El usuario canceló el ingreso" },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const form = await readForm(raw);
    const run = form.get("run") ?? "";
    const identity = identityByRun(run, identities);
    if (!identity || form.get("password") !== CLAVEUNICA_DEMO_PASSWORD) {
      sendHtml(response, 200, renderLoginPage({ uid: details.uid, basePath, clientName, run, message: "RUN o ClaveÚnica incorrectos." }));
      return;
    }
    const clientId = String(details.params.client_id);
    const grant = new provider.Grant({ accountId: identity.sub, clientId });
    grant.addOIDCScope(String(details.params.scope ?? "openid"));
    const grantId = await grant.save();
    await provider.interactionFinished(
      raw,
      response,
      { login: { accountId: identity.sub }, consent: { grantId } },
      { mergeWithLastSubmission: false },
    );
  };

  if (behaviour === "down") {
    app.all("/*", async (_request, reply) =>
      reply
        .status(503)
        .type(htmlContentType)
        .send(renderPage("ClaveÚnica – Servicio no disponible", html`<h1>Servicio no disponible</h1>`)),
    );
    return;
  }

  app.get<{ Params: { uid: string } }>("/interaccion/:uid", (request, reply) => handleInteraction(request, reply, false));
  app.post<{ Params: { uid: string } }>("/interaccion/:uid", (request, reply) => handleInteraction(request, reply, false));
  app.post<{ Params: { uid: string } }>("/interaccion/:uid/cancelar", (request, reply) => handleInteraction(request, reply, true));

  app.get("/jwks", async (request, reply) => reply.header("Cache-Control", "no-store").send({ keys: mountedFor(request).publishedKeys }));

  app.all("/*", async (request, reply) => {
    const { provider } = mountedFor(request);
    reply.hijack();
    const raw = request.raw as IncomingMessage & { originalUrl?: string };
    raw.originalUrl = raw.url;
    raw.url = raw.url?.slice(basePath.length) || "/";
    await provider.callback()(raw, reply.raw);
  });
};
