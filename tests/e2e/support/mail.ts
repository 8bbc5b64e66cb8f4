import { expect } from "@playwright/test";
import { e2eMocksUrl } from "./ports.ts";

export interface CaughtMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  date: string;
}

/**
 * The newest mail the catcher received for that address, waiting up to 10 s for one newer than `since` (and whose
 * text matches `matching`, when given: another mail to the same address, e.g. an account's welcome leaving the
 * durable queue a moment late, can arrive after `since` too).
 */
export async function latestMailTo(email: string, since: Date = new Date(0), matching?: RegExp): Promise<CaughtMail> {
  let found: CaughtMail | undefined;
  await expect
    .poll(
      async () => {
        const response = await fetch(`${e2eMocksUrl}/mail/messages?to=${encodeURIComponent(email)}`);
        const mails = (await response.json()) as CaughtMail[];
        found = mails.find((mail) => new Date(mail.date) >= since && (!matching || matching.test(mail.text)));
        return found;
      },
      { message: `No llegó ningún correo a ${email}`, timeout: 10_000, intervals: [100] },
    )
    .toBeDefined();
  return found!;
}

/** First http(s) link in a mail's text. */
export function firstLink(mail: CaughtMail): string {
  const match = /https?:\/\/\S+/.exec(mail.text);
  if (!match) throw new Error(`El correo "${mail.subject}" no trae enlace`);
  // A sentence may end right after the link: its closing punctuation is not part of it.
  return match[0].replace(/[.,;:)]+$/, "");
}
