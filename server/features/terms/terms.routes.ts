import { access } from "../../http/route-access.ts";
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { parseInput } from "../../http/validate.ts";
import { ZClinicQuery } from "../../contract/params.ts";
import { z } from "zod";
import { payloadOf } from "../../contract/api.dto.ts";
import { fileResponse, type RouteDocs } from "../../http/route-docs.ts";
import { acceptTerms, hasAcceptedTerms, TERMS_FILE_NAME, termsDocumentUrl, termsPdf } from "./terms.service.ts";

const tag = "Términos y condiciones";
/** The API document's entry of each route (served at /api/docs), with the schemas the routes validate with. */
const docs = {
  file: {
    tag,
    summary: "Dirección del PDF de términos y condiciones de la clínica",
    querystring: ZClinicQuery,
    response: payloadOf(z.string().describe("Dirección del PDF, para abrir en una pestaña nueva")),
  },
  document: {
    tag,
    summary: "PDF de términos y condiciones de una clínica",
    params: z.object({ clinic: z.string().max(100).describe("Clave de la clínica; una desconocida recibe el de la clínica por defecto") }),
    response: fileResponse("application/pdf", "El PDF de términos y condiciones"),
  },
  accept: { tag, summary: "Acepta los términos y condiciones (cuerpo vacío)", response: z.string().describe("Fecha ISO de la aceptación") },
  validate: { tag, summary: "Indica si el usuario aceptó los términos y condiciones", response: z.boolean() },
} satisfies Record<string, RouteDocs>;

/** REST /api/rcr/v1/term-conditions/* (SPEC §7) and the PDF itself, served per clinic. */
export async function termsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  app.get(`/term-conditions/file/${TERMS_FILE_NAME}`, access("public", docs.file), async (request) => {
    const { clinic } = parseInput(ZClinicQuery, request.query);
    return { payload: termsDocumentUrl(clinic) };
  });

  app.get<{ Params: { clinic: string } }>(
    `/term-conditions/document/:clinic/${TERMS_FILE_NAME}`,
    access("public", docs.document),
    async (request, reply) => {
      const pdf = await termsPdf(request.params.clinic, deps.config.TERMS_VERSION);
      return reply
        .type("application/pdf")
        .header("Content-Disposition", `inline; filename="${TERMS_FILE_NAME}"`)
        .header("Cache-Control", "public, max-age=3600")
        .send(Buffer.from(pdf));
    },
  );

  app.post("/term-conditions/accept", access("user", docs.accept, { firstLogin: true }), async (request, reply) => {
    const user = await requireUser(deps, request.headers.authorization, { duringFirstLogin: true });
    const acceptedAt = await acceptTerms(deps, user, requestMeta(request));
    // The spec's response is the bare acceptance date; Fastify would send a returned string as text/plain.
    return reply.type("application/json").send(JSON.stringify(acceptedAt.toISOString()));
  });

  app.get("/term-conditions/validate-tyc", access("user", docs.validate, { firstLogin: true }), async (request) =>
    hasAcceptedTerms(await requireUser(deps, request.headers.authorization, { duringFirstLogin: true })),
  );
}
