import type { FastifyInstance } from "fastify";
import { z } from "zod";
import type { AppDeps } from "../../deps.ts";
import { requireUser } from "../../http/authenticate.ts";
import { requestMeta } from "../../http/request-meta.ts";
import { access } from "../../http/route-access.ts";
import type { RouteDocs } from "../../http/route-docs.ts";
import { requireAdmin, requireStaffActor } from "../../lib/access.ts";
import { audit } from "../../lib/audit.ts";
import { forbiddenMessage } from "../../lib/errors.ts";

export const ZStuckMail = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  state: z.string(),
  attempts: z.number().int(),
  createdAt: z.string(),
  lastError: z.string().nullable(),
});

const ZMailQueueStatus = z.object({
  /** False when mail is sent during the request (MAIL_QUEUE=false): nothing can be stuck. */
  queued: z.boolean(),
  stuckAfterMinutes: z.number().int(),
  pending: z.number().int(),
  stuck: z.array(ZStuckMail),
});

const docs = {
  status: {
    tag: "Correo",
    summary: "Correos salientes en cola sin enviar por más de MAIL_STUCK_MINUTES (10) minutos (solo administradores)",
    response: z.object({ payload: ZMailQueueStatus }),
  },
} satisfies Record<string, RouteDocs>;

/** GET /admin/mail-queue: what admins need to notice that SMTP has been refusing mail for a while. */
export async function mailQueueRoutes(app: FastifyInstance, { deps }: { deps: AppDeps }) {
  app.get("/admin/mail-queue", access("admin", docs.status), async (request) => {
    const user = await requireUser(deps, request.headers.authorization);
    const meta = requestMeta(request);
    const actor = await requireStaffActor(deps, user, meta, "mail.queue.read");
    await requireAdmin(deps, actor, meta, { action: "mail.queue.read", resource: "mail" }, forbiddenMessage);
    const minutes = deps.config.MAIL_STUCK_MINUTES;
    const queue = deps.mailQueue;
    const payload = queue
      ? { queued: true, stuckAfterMinutes: minutes, pending: await queue.pending(), stuck: await queue.stuck(minutes) }
      : { queued: false, stuckAfterMinutes: minutes, pending: 0, stuck: [] };
    await audit(deps, user, meta, { action: "mail.queue.read", resource: "mail", after: { stuck: payload.stuck.length } });
    return { payload };
  });
}
