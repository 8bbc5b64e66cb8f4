import type { AppConfig } from "../config.ts";
import { createDicomWebImagingClient } from "./imaging/dicomweb-imaging.client.ts";
import type { ImagingProvider } from "./imaging/imaging.provider.ts";
import { createFhirLabClient } from "./lab/fhir-lab.client.ts";
import type { LabProvider } from "./lab/lab.provider.ts";
import type { PaymentsProvider } from "./payments/payments.provider.ts";
import { createWebpayPlusClient } from "./payments/webpay-plus-payments.client.ts";
import type { MailProvider } from "./mail/mail.provider.ts";
import { createSmtpMailClient } from "./mail/smtp-mail.client.ts";

/**
 * The outside services the features use, one instance each. buildApp receives them (tests may swap any one);
 * the real clients are built here from configuration. A new provider adds its entry here and in createProviders.
 */
export interface Providers {
  mail: MailProvider;
  lab: LabProvider;
  imaging: ImagingProvider;
  payments: PaymentsProvider;
}

/** The real clients, from configuration (each reads only its own config slice). */
export function createProviders(config: AppConfig): Providers {
  return {
    mail: createSmtpMailClient(config),
    lab: createFhirLabClient(config),
    imaging: createDicomWebImagingClient(config),
    payments: createWebpayPlusClient(config),
  };
}

/** Releases what the clients hold open (SMTP pool, HTTP agents). */
export function closeProviders(providers: Partial<Providers>): void {
  providers.mail?.close();
}
