import nodemailer from "nodemailer";
import type { AppConfig } from "../config.ts";
import { AppError } from "./errors.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** SMTP mailer (nodemailer). In development it talks to the mail catcher of mocks/ on 127.0.0.1:2525. */
export function createMailer(config: AppConfig): Mailer {
  const transport = nodemailer.createTransport({
    host: config.SMTP_HOST,
    port: config.SMTP_PORT,
    secure: config.SMTP_SECURE,
    ignoreTLS: !config.SMTP_SECURE && !config.SMTP_USER,
    auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASSWORD ?? "" } : undefined,
    connectionTimeout: 10_000,
  });
  return {
    async send(message) {
      try {
        await transport.sendMail({ from: config.MAIL_FROM, ...message });
      } catch (error) {
        throw new AppError("BAD_GATEWAY", "No se pudo enviar el correo, por favor intente más tarde", { cause: error });
      }
    },
    close: () => transport.close(),
  };
}

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
