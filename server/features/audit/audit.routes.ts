import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { access } from "../../http/route-access.ts";
import { chileToday } from "../../lib/chile-time.ts";
import { exportAuditCsv, listAuditEvents } from "./audit.service.ts";
import { payloadOf } from "../../contract/api.dto.ts";
import { ZAuditFilters, ZAuditListInput, ZAuditPage } from "../../contract/audit.schemas.ts";
import { fileResponse, type RouteDocs } from "../../http/route-docs.ts";

const tag = "Auditoría";
/** The API document's entry of each route (served at /api/docs). */
const docs = {
  events: {
    tag,
    summary: "Eventos de auditoría filtrados por usuario, paciente, acción y días (hora de Chile), del más nuevo al más antiguo",
    querystring: ZAuditListInput,
    response: payloadOf(ZAuditPage),
  },
  export: {
    tag,
    summary: "Las filas filtradas como CSV (separador ;, UTF-8 con BOM; hasta 10.000)",
    querystring: ZAuditFilters,
    response: fileResponse("text/csv", "CSV de la auditoría; X-Audit-Rows-Capped dice si había más filas"),
  },
} satisfies Record<string, RouteDocs>;

/** REST of the audit trail ('Auditoría', admins only): one page as JSON, or every filtered row as CSV. */
export async function auditRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  app.get("/admin/audit/events", access("admin", docs.events), async (request) => {
    const user = await requireUser(deps, request.headers.authorization);
    return { payload: await listAuditEvents(deps, user, request.query, requestMeta(request)) };
  });

  app.get("/admin/audit/export.csv", access("admin", docs.export), async (request, reply) => {
    const user = await requireUser(deps, request.headers.authorization);
    const { csv, rows, capped } = await exportAuditCsv(deps, user, request.query, requestMeta(request));
    return reply
      .header("content-type", "text/csv; charset=utf-8")
      .header("content-disposition", `attachment; filename="auditoria-${chileToday()}.csv"`)
      .header("x-audit-rows", String(rows))
      .header("x-audit-rows-capped", String(capped))
      .send(csv);
  });
}
