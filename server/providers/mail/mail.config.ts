import { z } from "zod";
import { envBoolean } from "../../lib/env.ts";

/** Outgoing mail (SMTP). Development: the mail catcher of mocks/ on 127.0.0.1:2525. */
export const mailConfigSchema = z.object({
  SMTP_HOST: z.string().default("localhost"),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(2525),
  SMTP_SECURE: envBoolean.default(false),
  SMTP_USER: z.string().optional(),
  SMTP_PASSWORD: z.string().optional(),
  MAIL_FROM: z.string().default("Portal Pacientes <no-responder@portalpacientes.cl>"),
});

export type MailConfig = z.infer<typeof mailConfigSchema>;

/** The durable outbound queue in front of SMTP (mail-queue.ts). */
export const mailQueueConfigSchema = z.object({
  /**
   * Mail goes through the durable queue (pg-boss on the portal's database): requests succeed while SMTP is down and the
   * mail is delivered when it returns. false = send during the request (502 when SMTP fails).
   */
  MAIL_QUEUE: envBoolean.default(true),
  /** Seconds between delivery attempts of a queued mail while SMTP refuses. */
  MAIL_RETRY_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** Admins see queued mail older than this as stuck (GET /api/rcr/v1/admin/mail-queue, /metrics). */
  MAIL_STUCK_MINUTES: z.coerce.number().int().min(1).default(10),
});
