import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import { openApiDocument, type DocumentedRoute } from "./openapi.ts";
import { AppError } from "../lib/errors.ts";
import { access } from "./route-access.ts";

// /api/docs: the OpenAPI document of the REST contract (JSON) and a page to browse it (Swagger UI, served from the
// swagger-ui-dist package: no CDN, and no inline script, so the portal's CSP holds as it is). Public, like the
// contract it describes: it names calls and rules, never data, and every call still checks who is asking.

export const DOCS_PREFIX = "/api/docs";

const require = createRequire(import.meta.url);
const swaggerDir = path.dirname(require.resolve("swagger-ui-dist/package.json"));
const assets: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "application/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

const page = `<!doctype html>
<html lang="es">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Portal Pacientes: API REST</title>
    <link rel="stylesheet" href="${DOCS_PREFIX}/assets/swagger-ui.css" />
    <link rel="icon" type="image/png" href="${DOCS_PREFIX}/assets/favicon-32x32.png" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="${DOCS_PREFIX}/assets/swagger-ui-bundle.js"></script>
    <script src="${DOCS_PREFIX}/swagger-init.js"></script>
  </body>
</html>
`;

const init = `window.ui = SwaggerUIBundle({
  url: "${DOCS_PREFIX}/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis],
  layout: "BaseLayout",
});
`;

// The document describes the contract, not a build: its version is the contract's (/api/rcr/v1), so the compiled server
// (dist/, where no package.json sits beside it) publishes the same document as the TypeScript one.
const version = "1.0.0";

/** Registers /api/docs; the document is built once, on first request, from the complete route table. */
export function registerApiDocs(app: FastifyInstance, routes: readonly DocumentedRoute[], prefix: string): void {
  let document: string | undefined;
  const files = new Map<string, Buffer>();

  app.get(`${DOCS_PREFIX}/openapi.json`, access("public"), async (_request, reply) => {
    document ??= JSON.stringify(openApiDocument(routes, prefix, version));
    return reply.type("application/json; charset=utf-8").header("Cache-Control", "no-cache").send(document);
  });

  app.get(DOCS_PREFIX, access("public"), async (_request, reply) =>
    reply.type("text/html; charset=utf-8").header("Cache-Control", "no-cache").send(page),
  );

  app.get(`${DOCS_PREFIX}/swagger-init.js`, access("public"), async (_request, reply) =>
    reply.type("application/javascript; charset=utf-8").header("Cache-Control", "no-cache").send(init),
  );

  app.get<{ Params: { file: string } }>(`${DOCS_PREFIX}/assets/:file`, access("public"), async (request, reply) => {
    const type = Object.hasOwn(assets, request.params.file) ? assets[request.params.file] : undefined;
    if (!type) throw new AppError("NOT_FOUND", "Recurso no encontrado");
    let content = files.get(request.params.file);
    if (!content) files.set(request.params.file, (content = readFileSync(path.join(swaggerDir, request.params.file))));
    return reply.type(type).header("Cache-Control", "public, max-age=86400").send(content);
  });
}
