import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import type { AppConfig } from "../config.ts";
import { schedulingOrigins } from "../lib/clinic-urls.ts";
import { originOf } from "../providers/provider-config.ts";

/**
 * Origins the portal may frame: exactly the origins of the configured scheduling pages (every clinic's frames) and
 * of the imaging viewer (IMAGING_VIEWER_URL_TEMPLATE, when configured), which shows a study inside a modal frame.
 */
export function frameOrigins(config: AppConfig): string[] {
  const viewer = config.IMAGING_VIEWER_URL_TEMPLATE;
  return [...new Set([...schedulingOrigins(config), ...(viewer ? [originOf(viewer)] : [])])];
}

/** Where forms may be sent: the portal itself and the card-payment provider (Webpay's form gets a POST with token_ws). */
export function formOrigins(config: AppConfig): string[] {
  return ["'self'", originOf(config.WEBPAY_BASE_URL)];
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
        formAction: formOrigins(config),
        upgradeInsecureRequests: config.NODE_ENV === "production" ? [] : null,
      },
    },
    hsts: { maxAge: 31_536_000, includeSubDomains: true },
    crossOriginEmbedderPolicy: false,
  });
}
