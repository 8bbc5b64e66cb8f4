import { ZAuditListInput } from "../../contract/audit.schemas.ts";
import { adminProcedure, router } from "../../trpc/trpc.ts";
import { listAuditEvents } from "./audit.service.ts";

// The 'Auditoría' screen's list; the CSV is a download, so the screen takes it from the REST route.
export const auditRouter = router({
  list: adminProcedure("audit.list")
    .input(ZAuditListInput)
    .query(({ ctx, input }) => listAuditEvents(ctx.deps, ctx.user, input, ctx.meta)),
});
