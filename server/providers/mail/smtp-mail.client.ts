import nodemailer from "nodemailer";
import { AppError } from "../../lib/errors.ts";
import type { MailConfig } from "./mail.config.ts";
import type { MailProvider } from "./mail.provider.ts";

export const mailUnavailableMessage = "No se pudo enviar el correo, por favor intente más tarde";

// nodemailer's codes for a server that did not answer in time (connection, greeting or socket timeout).
const timeoutCodes = new Set(["ETIMEDOUT", "ESOCKETTIMEDOUT", "ECONNECTIONTIMEOUT"]);

/** The one place nodemailer errors become AppErrors: a timeout is PROVIDER_TIMEOUT, anything else PROVIDER_UNAVAILABLE. */
export function toMailError(error: unknown): AppError {
  const code = (error as { code?: unknown } | null)?.code;
  const timedOut = typeof code === "string" && timeoutCodes.has(code);
  return new AppError(timedOut ? "PROVIDER_TIMEOUT" : "PROVIDER_UNAVAILABLE", mailUnavailableMessage, { cause: error });
}

/**
 * SMTP mail client (nodemailer). In development it talks to the mail catcher of mocks/ on 127.0.0.1:2525.
 * `silenceMs`: how long a connected server may stay silent (greeting or any later reply) before the send fails.
 * nodemailer's own default is 10 minutes, and the mail queue delivers one message at a time per instance.
 */
export function createSmtpMailClient(config: MailConfig, { silenceMs = 20_000 }: { silenceMs?: number } = {}): MailProvider {
  const transport = nodemailer.createTransport({
    host: config.SMTP_HOST,
    port: config.SMTP_PORT,
    secure: config.SMTP_SECURE,
    // No ignoreTLS: a relay that offers STARTTLS (port 587) is always used over TLS, with or without a login. The mail
    // catcher of mocks/ offers no STARTTLS, so development mail still flows in clear on loopback.
    auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASSWORD ?? "" } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: silenceMs,
    socketTimeout: silenceMs,
  });
  return {
    async send(message) {
      try {
        await transport.sendMail({ from: config.MAIL_FROM, ...message });
      } catch (error) {
        throw toMailError(error);
      }
    },
    close: () => transport.close(),
  };
}
