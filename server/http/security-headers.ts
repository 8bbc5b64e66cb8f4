import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import type { AppConfig } from "../config.ts";
import { schedulingOrigins } from "../lib/clinic-urls.ts";
import { viewerOrigin } from "../providers/imaging/imaging.config.ts";
import { webpayFormOrigin } from "../providers/payments/payments.config.ts";

/**
 * Origins the portal may frame: exactly the origins of the configured scheduling pages (every clinic's frames) and
 * of the imaging viewer (IMAGING_VIEWER_URL_TEMPLATE), which shows a study inside a modal frame.
 */
export function frameOrigins(config: AppConfig): string[] {
  return [...new Set([...schedulingOrigins(config), viewerOrigin(config)])];
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
