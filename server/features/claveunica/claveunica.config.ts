import { z } from "zod";
import { optionalSecret } from "../../providers/provider-config.ts";

/**
 * ClaveÚnica, the State's OpenID Connect provider (issue 43); documented in .env.example and docs/operacion.md. Without
 * CLAVEUNICA_ISSUER the portal offers only RUT and password; with it, the client id and secret are required.
 */
export const claveUnicaConfigSchema = z.object({
  /** Issuer: the mock's http://localhost:4300/claveunica, or the State's https://accounts.claveunica.gob.cl/openid. */
  CLAVEUNICA_ISSUER: z
    .string()
    .optional()
    .transform((value) => value?.trim().replace(/\/+$/, "") || undefined)
    .refine((value) => value === undefined || /^https?:\/\/[^/]/i.test(value), { error: "debe ser una dirección http(s)" }),
  CLAVEUNICA_CLIENT_ID: optionalSecret,
  CLAVEUNICA_CLIENT_SECRET: optionalSecret,
  /** Origin the server reaches the provider at, when it differs from the issuer's (Docker: http://mocks:4300). */
  CLAVEUNICA_SERVER_ORIGIN: z
    .string()
    .url()
    .transform((value) => new URL(value).origin)
    .optional(),
  /** Time allowed for one call to the provider (discovery, token, userinfo). */
  CLAVEUNICA_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(10_000),
  /** How long the browser may take at the provider between 'Ingresar con ClaveÚnica' and its return. */
  CLAVEUNICA_FLOW_MINUTES: z.coerce.number().int().min(1).max(30).default(10),
});

export type ClaveUnicaConfig = z.infer<typeof claveUnicaConfigSchema>;

export interface ClaveUnicaClientSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
}

/** The client's settings, or null when ClaveÚnica is not configured; throws on a half-configured client. */
export function claveUnicaSettings(config: ClaveUnicaConfig): ClaveUnicaClientSettings | null {
  const { CLAVEUNICA_ISSUER: issuer, CLAVEUNICA_CLIENT_ID: clientId, CLAVEUNICA_CLIENT_SECRET: clientSecret } = config;
  if (!issuer) return null;
  if (!clientId || !clientSecret)
    throw new Error(
      "Configuración inválida: con CLAVEUNICA_ISSUER definido, CLAVEUNICA_CLIENT_ID y CLAVEUNICA_CLIENT_SECRET son obligatorios.",
    );
  return { issuer, clientId, clientSecret };
}
