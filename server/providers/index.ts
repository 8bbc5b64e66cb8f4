import type { AppConfig } from "../config.ts";
import type { MailProvider } from "./mail/mail.provider.ts";
import { createSmtpMailClient } from "./mail/smtp-mail.client.ts";

/**
 * The outside services the features use, one instance each. buildApp receives them (tests may swap any one);
 * the real clients are built here from configuration. Payments, lab and imaging add their entry beside mail:
 * `<name>: <Name>Provider` here and `<name>: create<Protocol><Name>Client(config)` in createProviders.
 */
export interface Providers {
  mail: MailProvider;
}

/** The real clients, from configuration (each reads only its own config slice). */
export function createProviders(config: AppConfig): Providers {
  return {
    mail: createSmtpMailClient(config),
  };
}

/** Releases what the clients hold open (SMTP pool, HTTP agents). */
export function closeProviders(providers: Partial<Providers>): void {
  providers.mail?.close();
}
