import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";
import type { AppConfig } from "../config.ts";

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/** Origins the portal may frame: the configured scheduling pages (and, later, imaging viewers). */
export function frameOrigins(config: AppConfig): string[] {
  const origins = [originOf(config.SCHEDULING_URL_TEMPLATE.replace("{centerId}", "X"))];
  return [...new Set(origins.filter((o): o is string => o !== null))];
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
        formAction: ["'self'"],
        upgradeInsecureRequests: config.NODE_ENV === "production" ? [] : null,
      },
    },
    hsts: { maxAge: 31_536_000, includeSubDomains: true },
    crossOriginEmbedderPolicy: false,
  });
}
