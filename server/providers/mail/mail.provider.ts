/** One e-mail as the features compose it (Spanish text and HTML versions). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Message-ID header; the mail queue sets one per job, so a retried delivery is recognisable as the same mail. */
  messageId?: string;
}

/**
 * What the features use to send mail. `send` throws AppError PROVIDER_UNAVAILABLE (502) or PROVIDER_TIMEOUT (504) when
 * the mail server refuses or does not answer; the client maps its own errors, so features never see nodemailer's.
 */
export interface MailProvider {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Escapes text for the HTML version of a mail. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}
