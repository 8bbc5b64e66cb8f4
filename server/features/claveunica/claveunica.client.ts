import * as oidc from "openid-client";
import type { ClaveUnicaClientSettings, ClaveUnicaConfig } from "./claveunica.config.ts";

// The relying party's view of ClaveÚnica through openid-client: discovery once per process (again after a failure),
// every call bounded by CLAVEUNICA_TIMEOUT_MS, and ID token signatures checked against the provider's JWKS
// (openid-client skips that check for a token received straight from the token endpoint unless asked).

export interface ClaveUnicaClient {
  settings: ClaveUnicaClientSettings;
  configuration(): Promise<oidc.Configuration>;
}

export function createClaveUnicaClient(settings: ClaveUnicaClientSettings, config: ClaveUnicaConfig): ClaveUnicaClient {
  const issuerOrigin = new URL(settings.issuer).origin;
  const serverOrigin = config.CLAVEUNICA_SERVER_ORIGIN;
  const fetchWithLimits: oidc.CustomFetch = (url, options) => {
    const address = serverOrigin && url.startsWith(issuerOrigin) ? serverOrigin + url.slice(issuerOrigin.length) : url;
    return fetch(address, { ...options, redirect: "manual", signal: AbortSignal.timeout(config.CLAVEUNICA_TIMEOUT_MS) } as RequestInit);
  };
  const insecure = settings.issuer.startsWith("http:");
  let discovered: Promise<oidc.Configuration> | null = null;
  return {
    settings,
    configuration() {
      discovered ??= oidc
        .discovery(new URL(settings.issuer), settings.clientId, undefined, oidc.ClientSecretPost(settings.clientSecret), {
          [oidc.customFetch]: fetchWithLimits,
          ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
        })
        .then((configuration) => {
          configuration[oidc.customFetch] = fetchWithLimits;
          oidc.enableNonRepudiationChecks(configuration);
          return configuration;
        })
        .catch((error: unknown) => {
          discovered = null;
          throw error;
        });
      return discovered;
    },
  };
}
