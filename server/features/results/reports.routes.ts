import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { requirePatient } from "./patient-access.ts";
import { mailReport, openReport, reportLinkExpiredMessage, ZMailReportQuery } from "./reports.service.ts";
import { parseInput } from "../../http/validate.ts";
import { z } from "zod";
import { payloadOf } from "../../contract/api.dto.ts";
import { fileResponse, type RouteDocs } from "../../http/route-docs.ts";

const ZReportQuery = z.object({ token: z.string({ error: reportLinkExpiredMessage }).max(2000, reportLinkExpiredMessage) });

const tag = "Informes";
/** The API document's entry of each route (served at /api/docs), with the schemas the routes and services validate with. */
const docs = {
  report: {
    tag,
    summary: "Informe PDF de un examen, por su enlace firmado",
    description: "El token firmado y con vencimiento de la consulta es la credencial: el enlace se abre sin sesión.",
    querystring: ZReportQuery,
    response: fileResponse("application/pdf", "El informe PDF"),
    errors: [404, 502, 504],
  },
  mail: {
    tag,
    summary: "Envía el enlace de un informe al correo registrado del paciente",
    querystring: ZMailReportQuery,
    response: payloadOf(z.literal(true)),
    errors: [404, 502, 504],
  },
} satisfies Record<string, RouteDocs>;

/** The report PDFs behind the signed links, and 'Enviar por email' (SPEC §7 mail/mailValtek). */
export async function reportsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  // Public on purpose: the signed, expiring link is the credential (a browser tab or a mail client opens it, with no bearer).
  app.get("/results/report", { config: { access: "public", docs: docs.report } }, async (request, reply) => {
    const { token } = parseInput(ZReportQuery, request.query);
    const { pdf, fileName } = await openReport(deps, token, requestMeta(request));
    return reply
      .type("application/pdf")
      .header("Content-Disposition", `inline; filename="${fileName}"`)
      .header("Cache-Control", "private, no-store")
      .header("Referrer-Policy", "no-referrer")
      .send(Buffer.from(pdf));
  });

  app.get("/mail/mailValtek", { config: { access: "patient", docs: docs.mail } }, async (request) => {
    const user = requirePatient(await requireUser(deps, request.headers.authorization));
    return { payload: await mailReport(deps, user, request.query, requestMeta(request)) };
  });
}
