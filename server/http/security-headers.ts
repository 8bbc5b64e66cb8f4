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

/** Whether the clinics' public addresses (CLINIC_PORTAL_URL_TEMPLATE, what patients open) are https. */
function servedOverHttps(config: Pick<AppConfig, "CLINIC_PORTAL_URL_TEMPLATE">): boolean {
  return /^https:\/\//i.test(config.CLINIC_PORTAL_URL_TEMPLATE);
}

/** The Content-Security-Policy: no inline script, frames and form posts only to the configured providers' origins. */
export function contentSecurityPolicy(config: AppConfig): string {
  const directives: Array<[string, string[]]> = [
    ["default-src", ["'self'"]],
    ["script-src", ["'self'"]],
    ["style-src", ["'self'", "'unsafe-inline'"]],
    ["img-src", ["'self'", "data:"]],
    ["font-src", ["'self'", "data:"]],
    ["connect-src", ["'self'"]],
    ["frame-src", frameOrigins(config)],
    ["object-src", ["'none'"]],
    ["base-uri", ["'none'"]],
    ["frame-ancestors", ["'none'"]],
    ["form-action", formActionOrigins(config)],
  ];
  // Only where the portal is served over https: on a plain-http trial (the demo compose, a clinic host before its
  // certificate) the browser would fetch every script from https:// and show a blank page.
  if (config.NODE_ENV === "production" && servedOverHttps(config)) directives.push(["upgrade-insecure-requests", []]);
  return directives.map(([name, values]) => [name, ...values].join(" ")).join(";");
}

/**
 * Every security header of an answer, computed once from the configuration: helmet's defaults (the values it sends,
 * kept header for header) with the portal's CSP and HSTS of one year. Helmet rebuilt and re-parsed its policy on every
 * request (5 % of a profile); these never change while the process runs.
 */
export function securityHeaders(config: AppConfig): Record<string, string> {
  return {
    "content-security-policy": contentSecurityPolicy(config),
    "cross-origin-opener-policy": "same-origin",
    "cross-origin-resource-policy": "same-origin",
    "origin-agent-cluster": "?1",
    "referrer-policy": "no-referrer",
    "strict-transport-security": "max-age=31536000; includeSubDomains",
    "x-content-type-options": "nosniff",
    "x-dns-prefetch-control": "off",
    "x-download-options": "noopen",
    // The same as CSP frame-ancestors 'none', for browsers that only know this header.
    "x-frame-options": "DENY",
    "x-permitted-cross-domain-policies": "none",
    "x-xss-protection": "0",
  };
}

/** Sets the precomputed headers on every answer (a route may still replace one, e.g. a download's CSP). */
export function registerSecurityHeaders(app: FastifyInstance, config: AppConfig): void {
  const headers = securityHeaders(config);
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
