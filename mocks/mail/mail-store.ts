import { randomUUID } from "node:crypto";

/** A message as exposed by `GET /mail/messages`. */
export interface MailMessageJson {
  id: string;
  /** Sender address from the From header (falls back to the SMTP envelope sender). */
  from: string;
  /** Envelope recipients (RCPT TO), comma-joined. */
  to: string;
  subject: string;
  text: string;
  html: string;
  /** When the catcher received the message, ISO 8601. */
  date: string;
}

export interface CaughtMail extends MailMessageJson {
  fromName: string;
  recipients: string[];
}

export type NewCaughtMail = Omit<CaughtMail, "id" | "to" | "date"> & { receivedAt: Date };

export const defaultMailCapacity = 500;

/** In-memory, bounded list of caught messages, newest first. */
export class MailStore {
  private messages: CaughtMail[] = [];

  constructor(private readonly capacity = defaultMailCapacity) {}

  add(mail: NewCaughtMail): CaughtMail {
    const { receivedAt, ...fields } = mail;
    const caught: CaughtMail = {
      ...fields,
      id: randomUUID(),
      to: mail.recipients.join(", "),
      date: receivedAt.toISOString(),
    };
    this.messages.unshift(caught);
    this.messages.length = Math.min(this.messages.length, this.capacity);
    return caught;
  }

  list(filter: { to?: string } = {}): CaughtMail[] {
    const wanted = filter.to?.trim().toLowerCase();
    if (!wanted) return [...this.messages];
    return this.messages.filter((mail) => mail.recipients.some((address) => address.toLowerCase() === wanted));
  }

  get(id: string): CaughtMail | undefined {
    return this.messages.find((mail) => mail.id === id);
  }

  clear(): void {
    this.messages = [];
  }
}

export function toMessageJson(mail: CaughtMail): MailMessageJson {
  const { id, from, to, subject, text, html, date } = mail;
  return { id, from, to, subject, text, html, date };
}
