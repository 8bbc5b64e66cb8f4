import type { FastifyRequest } from "fastify";

// Request logs must not keep secrets or personal data found in URLs: reset links (/recover-password?token=…&rut=…),
// payment returns (token_ws, TBK_TOKEN), search terms (param, tRPC's input) and RUTs in paths (/files/accounts/:rut).
// Structured fields (headers, bodies, passwords) are redacted by the logger itself (server/ops/logging.ts).
const hiddenParams = /([?&](?:token|token_ws|tbk_token|rut|param|search|input|email)=)[^&#]*/gi;
// A RUT in any of its spellings: 12.345.678-5, 12345678-5, 123456785, 12345678-K (7–8 digits before the check digit).
const rutLike = /(?<![\d.])(?:\d{1,2}\.\d{3}\.\d{3}-?[\dkK]|\d{7,8}-[\dkK]|\d{8,9})(?![\d.])/g;

// Inside any text (an error's message, a database error's detail "Key (rut)=(12345678-5) already exists"): the spellings
// with a hyphen or dots, which cannot be a JSON number, nor part of a UUID or a longer token.
const rutInText = /(?<![\w.-])(?:\d{1,2}\.\d{3}\.\d{3}-?[\dkK]|\d{7,8}-[\dkK])(?![\w-]|\.\d)/g;

/** The last line of defence: every log line, as written, loses what looks like a RUT. */
export function redactRutsInText(text: string): string {
  return text.replace(rutInText, "[rut]");
}

export function redactUrl(url: string): string {
  return url.replace(hiddenParams, "$1[oculto]").replace(rutLike, "[rut]");
}

/**
 * Request log fields: no headers (Authorization, cookies), no body, no secrets or personal data in the URL. Whatever a
 * log call passes as `req` goes through here, so anything that is not a request keeps only those fields too.
 */
export function serializeRequest(request: FastifyRequest) {
  const text = (value: unknown) => (typeof value === "string" ? value : undefined);
  const url = text(request.url);
  return {
    method: text(request.method),
    url: url === undefined ? undefined : redactUrl(url),
    host: text(request.host),
    remoteAddress: text(request.ip),
  };
}
