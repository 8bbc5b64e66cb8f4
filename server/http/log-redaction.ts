import type { FastifyRequest } from "fastify";

// Reset links (/recover-password?token=…) and payment returns (token_ws, TBK_TOKEN) carry secrets in the query
// string; request logs must not keep them.
const secretParams = /([?&](?:token|token_ws|tbk_token)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(secretParams, "$1[oculto]");
}

/** Request log fields: no headers (Authorization, cookies), no secrets in the URL. */
export function serializeRequest(request: FastifyRequest) {
  return { method: request.method, url: redactUrl(request.url), host: request.host, remoteAddress: request.ip };
}
