import { access } from "../../http/route-access.ts";
import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { parseInput } from "../../http/validate.ts";
import { ZClinicQuery } from "../../contract/params.ts";
import { acceptTerms, hasAcceptedTerms, TERMS_FILE_NAME, termsDocumentUrl, termsPdf } from "./terms.service.ts";

/** REST /api/rcr/v1/term-conditions/* (SPEC §7) and the PDF itself, served per clinic. */
export async function termsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  app.get(`/term-conditions/file/${TERMS_FILE_NAME}`, access("public"), async (request) => {
    const { clinic } = parseInput(ZClinicQuery, request.query);
    return { payload: termsDocumentUrl(clinic) };
  });

  app.get<{ Params: { clinic: string } }>(
    `/term-conditions/document/:clinic/${TERMS_FILE_NAME}`,
    access("public"),
    async (request, reply) => {
      const pdf = await termsPdf(request.params.clinic, deps.config.TERMS_VERSION);
      return reply
        .type("application/pdf")
        .header("Content-Disposition", `inline; filename="${TERMS_FILE_NAME}"`)
        .header("Cache-Control", "public, max-age=3600")
        .send(Buffer.from(pdf));
    },
  );

  app.post("/term-conditions/accept", access("user"), async (request, reply) => {
    const user = await requireUser(deps, request.headers.authorization);
    const acceptedAt = await acceptTerms(deps, user, requestMeta(request));
    // The spec's response is the bare acceptance date; Fastify would send a returned string as text/plain.
    return reply.type("application/json").send(JSON.stringify(acceptedAt.toISOString()));
  });

  app.get("/term-conditions/validate-tyc", access("user"), async (request) =>
    hasAcceptedTerms(await requireUser(deps, request.headers.authorization)),
  );
}
