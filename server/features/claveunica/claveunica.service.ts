import * as oidc from "openid-client";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import { Role, isStaffRole } from "../../contract/roles.ts";
import { clinicByKey, type Clinic } from "../../contract/clinics.ts";
import type { ClaveUnicaFailure, ClaveUnicaSuggested } from "../../contract/claveunica.ts";
import { isValidRut, normalizeRut } from "../../contract/rut.ts";
import { toUserDto, type UserDto } from "../../contract/users.dto.ts";
import { userDtoSelect } from "../../db/users.repository.ts";
import { recordAudit } from "../../lib/audit.ts";
import { clinicPortalUrl } from "../../lib/clinic-urls.ts";
import { issueAccessToken } from "../../lib/session-tokens.ts";
import { startSession } from "../../lib/sessions.ts";
import type { ClaveUnicaClient } from "./claveunica.client.ts";
import { safeNextPath, type ClaveUnicaFlow } from "./claveunica-flow.ts";

// Sign-in with ClaveÚnica (issue 43): the authorization code flow with PKCE, state and nonce bound to the browser, and
// the patient found by the RUN the State returns. It creates nothing but the portal's own session.

export const CALLBACK_PATH = "/claveunica/retorno";
export const SCOPES = "openid run name email";

export class ClaveUnicaRefusal extends Error {
  constructor(readonly reason: ClaveUnicaFailure) {
    super(reason);
  }
}

export function redirectUriFor(deps: AppDeps, clinic: Clinic): string {
  return `${clinicPortalUrl(deps.config, clinic)}${CALLBACK_PATH}`;
}

/** The provider's address to send the browser to, and the flow its cookie keeps. */
export async function startClaveUnica(
  deps: AppDeps,
  client: ClaveUnicaClient,
  input: { clinicKey: string; next: unknown },
): Promise<{ authorizationUrl: string; flow: ClaveUnicaFlow }> {
  const clinic = clinicByKey(input.clinicKey);
  if (!clinic) throw new ClaveUnicaRefusal("rechazado");
  let configuration: oidc.Configuration;
  try {
    configuration = await client.configuration();
  } catch {
    throw new ClaveUnicaRefusal("no-disponible");
  }
  const verifier = oidc.randomPKCECodeVerifier();
  const flow: ClaveUnicaFlow = {
    state: oidc.randomState(),
    nonce: oidc.randomNonce(),
    verifier,
    redirectUri: redirectUriFor(deps, clinic),
    clinic: clinic.key,
    next: safeNextPath(input.next),
    expiresAt: Date.now() + deps.config.CLAVEUNICA_FLOW_MINUTES * 60_000,
  };
  const url = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: flow.redirectUri,
    scope: SCOPES,
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state: flow.state,
    nonce: flow.nonce,
  });
  return { authorizationUrl: url.href, flow };
}

const ZClaveUnicaClaims = {
  run(userInfo: Record<string, unknown>): string | null {
    const rolUnico = userInfo.RolUnico as { numero?: unknown; DV?: unknown } | undefined;
    const numero = rolUnico?.numero;
    const dv = rolUnico?.DV;
    if ((typeof numero !== "number" && typeof numero !== "string") || typeof dv !== "string") return null;
    const run = normalizeRut(`${numero}-${dv}`);
    return isValidRut(run) ? run : null;
  },
  suggested(userInfo: Record<string, unknown>) {
    const name = userInfo.name as { nombres?: unknown; apellidos?: unknown } | undefined;
    const words = (value: unknown) => (Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : []);
    const [lastName, secondLastName] = words(name?.apellidos);
    // The portal has a first and a second name: ClaveÚnica's first name goes to the first, the rest to the second.
    const [firstName, ...otherNames] = words(name?.nombres);
    const email = typeof userInfo.email === "string" && userInfo.email.includes("@") ? userInfo.email : undefined;
    return { firstName, secondName: otherNames.join(" ") || undefined, lastName, secondLastName, email };
  },
};

export interface ClaveUnicaSignIn {
  user: UserDto;
  accessToken: string;
  /** "verify" when the patient has a second factor: the token reaches only POST /auth/verify-otp until the code. */
  secondFactor?: "verify";
  /** Claims for the profile's empty fields, for the patient to confirm (nothing is saved from them). */
  suggested: ClaveUnicaSuggested;
  next: string;
}

/**
 * The provider's answer at the callback: checks it against the browser's flow (state, nonce, PKCE, redirect URI,
 * this clinic's host), exchanges the code, checks the ID token (signature from the JWKS, iss, aud, exp, nonce), reads
 * the RUN from userinfo and starts the patient's session. Every refusal is audited and throws ClaveUnicaRefusal.
 */
export async function finishClaveUnica(
  deps: AppDeps,
  client: ClaveUnicaClient,
  input: { callbackUrl: URL; host: string | undefined; flow: ClaveUnicaFlow | null },
  meta: RequestMeta,
): Promise<ClaveUnicaSignIn> {
  const refuse = async (reason: ClaveUnicaFailure, user?: { id: number; roleType: number }) => {
    await recordAudit(deps.prisma, {
      actorId: user?.id ?? null,
      actorRole: user?.roleType ?? null,
      action: "login.claveunica",
      resource: "session",
      outcome: "denied",
      after: { reason },
      ip: meta.ip,
    });
    return new ClaveUnicaRefusal(reason);
  };
  const { flow, callbackUrl } = input;
  const providerError = callbackUrl.searchParams.get("error");
  if (!flow) throw await refuse(providerError === "access_denied" ? "cancelado" : "rechazado");
  if (flow.expiresAt < Date.now()) throw await refuse("vencido");
  const expected = new URL(flow.redirectUri);
  if (input.host?.toLowerCase() !== expected.host.toLowerCase()) throw await refuse("otra-clinica");
  if (providerError) throw await refuse(providerError === "access_denied" ? "cancelado" : "rechazado");

  let configuration: oidc.Configuration;
  try {
    configuration = await client.configuration();
  } catch {
    throw await refuse("no-disponible");
  }
  // What the provider redirected to, on the registered redirect URI (the query is the provider's answer).
  const currentUrl = new URL(flow.redirectUri);
  currentUrl.search = callbackUrl.search;
  let userInfo: Record<string, unknown>;
  try {
    const tokens = await oidc.authorizationCodeGrant(configuration, currentUrl, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const subject = tokens.claims()?.sub;
    if (!subject) throw new Error("sin sub");
    userInfo = await oidc.fetchUserInfo(configuration, tokens.access_token, subject);
  } catch (error) {
    const unreachable =
      error instanceof TypeError || (error instanceof Error && /timeout|abort|fetch failed/i.test(error.name + error.message));
    throw await refuse(unreachable ? "no-disponible" : "rechazado");
  }

  const run = ZClaveUnicaClaims.run(userInfo);
  if (!run) throw await refuse("rechazado");
  const user = await deps.prisma.user.findUnique({
    where: { rut: run },
    select: { ...userDtoSelect, tokenVersion: true, closedAt: true, totpEnabledAt: true },
  });
  if (!user) throw await refuse("sin-cuenta");
  if (isStaffRole(user.roleType) || user.roleType !== Role.patient) throw await refuse("personal", user);
  if (user.closedAt) throw await refuse("cuenta-cerrada", user);

  // A patient who set up a second factor gets it asked here too: ClaveÚnica replaces the portal's password, not the
  // code the patient chose to add. Until the code is given the token reaches only POST /auth/verify-otp.
  const secondFactorPending = user.totpEnabledAt !== null;
  const sessionId = await startSession(deps, user.id, meta, { signInMethod: "claveunica", secondFactorPending });
  await recordAudit(deps.prisma, {
    actorId: user.id,
    actorRole: user.roleType,
    action: "login.claveunica",
    resource: "session",
    ip: meta.ip,
  });
  deps.metrics?.loginOutcome("ok", "patient");
  const suggested = ZClaveUnicaClaims.suggested(userInfo);
  return {
    user: toUserDto(user),
    accessToken: issueAccessToken(deps, user, sessionId),
    ...(secondFactorPending ? { secondFactor: "verify" as const } : {}),
    // Only for fields the patient has not filled: nothing typed is ever replaced.
    suggested: onlyEmptyFields(user, suggested),
    next: flow.next,
  };
}

/** The suggestions for the fields the patient has left empty; a field with anything in it is never suggested over. */
export function onlyEmptyFields(
  user: Record<keyof ClaveUnicaSuggested, string | null>,
  suggested: ClaveUnicaSuggested,
): ClaveUnicaSuggested {
  const fields = ["firstName", "secondName", "lastName", "secondLastName", "email"] as const;
  return Object.fromEntries(
    fields.filter((field) => !user[field]?.trim() && suggested[field]).map((field) => [field, suggested[field]]),
  ) as ClaveUnicaSuggested;
}

/** 'Cerrar sesión' at ClaveÚnica too: the provider's end-session address, back to this clinic's /login; null without one. */
export async function claveUnicaLogoutUrl(deps: AppDeps, client: ClaveUnicaClient, clinicKey: string): Promise<string | null> {
  const clinic = clinicByKey(clinicKey);
  if (!clinic) return null;
  try {
    const configuration = await client.configuration();
    if (!configuration.serverMetadata().end_session_endpoint) return null;
    return oidc.buildEndSessionUrl(configuration, {
      client_id: client.settings.clientId,
      post_logout_redirect_uri: `${clinicPortalUrl(deps.config, clinic)}/login`,
    }).href;
  } catch {
    return null;
  }
}
