import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { requirePatient } from "./patient-access.ts";
import { mailReport, openReport, reportLinkExpiredMessage } from "./reports.service.ts";
import { parseInput } from "../../http/validate.ts";
import { z } from "zod";

const ZReportQuery = z.object({ token: z.string({ error: reportLinkExpiredMessage }).max(2000, reportLinkExpiredMessage) });

/** The report PDFs behind the signed links, and 'Enviar por email' (SPEC §7 mail/mailValtek). */
export async function reportsRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  // Public on purpose: the signed, expiring link is the credential (a browser tab or a mail client opens it, with no bearer).
  app.get("/results/report", { config: { access: "public" } }, async (request, reply) => {
    const { token } = parseInput(ZReportQuery, request.query);
    const { pdf, fileName } = await openReport(deps, token, requestMeta(request));
    return reply
      .type("application/pdf")
      .header("Content-Disposition", `inline; filename="${fileName}"`)
      .header("Cache-Control", "private, no-store")
      .header("Referrer-Policy", "no-referrer")
      .send(Buffer.from(pdf));
  });

  app.get("/mail/mailValtek", { config: { access: "patient" } }, async (request) => {
    const user = requirePatient(await requireUser(deps, request.headers.authorization));
    return { payload: await mailReport(deps, user, request.query, requestMeta(request)) };
  });
}
