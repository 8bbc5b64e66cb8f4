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
