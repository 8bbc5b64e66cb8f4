import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import type { AppConfig } from "../config.ts";
import { schedulingOrigins } from "../features/clinics/clinic-urls.ts";
import { webpayFormOrigin } from "../providers/payments/payments.config.ts";

/**
 * Origins the portal may frame: exactly the origins of the configured scheduling pages (every clinic's frames).
 * The imaging viewer's origin joins this list when that feature is configured.
 */
export function frameOrigins(config: AppConfig): string[] {
  return schedulingOrigins(config);
}

/** Origins the portal's pages may post forms to: itself and the payment provider's form (token_ws is posted there). */
export function formActionOrigins(config: AppConfig): string[] {
  return ["'self'", webpayFormOrigin(config)];
}

/** Helmet with a strict CSP (no inline script, frames only from configured origins) and HSTS of one year. */
export async function registerSecurityHeaders(app: FastifyInstance, config: AppConfig) {
  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'"],
        frameSrc: frameOrigins(config),
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        frameAncestors: ["'none'"],
        formAction: formActionOrigins(config),
        upgradeInsecureRequests: config.NODE_ENV === "production" ? [] : null,
      },
    },
    hsts: { maxAge: 31_536_000, includeSubDomains: true },
    crossOriginEmbedderPolicy: false,
  });
}
