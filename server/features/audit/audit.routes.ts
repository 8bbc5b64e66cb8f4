import type { FastifyInstance } from "fastify";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { access } from "../../http/route-access.ts";
import { chileToday } from "./chile-days.ts";
import { exportAuditCsv, listAuditEvents } from "./audit.service.ts";

/** REST of the audit trail ('Auditoría', admins only): one page as JSON, or every filtered row as CSV. */
export async function auditRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  app.get("/admin/audit/events", access("admin"), async (request) => {
    const user = await requireUser(deps, request.headers.authorization);
    return { payload: await listAuditEvents(deps, user, request.query, requestMeta(request)) };
  });

  app.get("/admin/audit/export.csv", access("admin"), async (request, reply) => {
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
