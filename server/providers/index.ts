import type { AppConfig } from "../config.ts";
import { withCircuitBreaker, type BreakerEvents } from "./circuit-breaker.ts";
import { createDicomWebImagingClient } from "./imaging/dicomweb-imaging.client.ts";
import type { ImagingProvider } from "./imaging/imaging.provider.ts";
import { createFhirLabClient } from "./lab/fhir-lab.client.ts";
import type { LabProvider } from "./lab/lab.provider.ts";
import type { PaymentsProvider } from "./payments/payments.provider.ts";
import { createWebpayPlusClient } from "./payments/webpay-plus-payments.client.ts";
import type { MailProvider } from "./mail/mail.provider.ts";
import { createFhirSchedulingClient } from "./scheduling/fhir-scheduling.client.ts";
import type { SchedulingProvider } from "./scheduling/scheduling.provider.ts";
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
  scheduling: SchedulingProvider;
}

/**
 * The real clients, from configuration (each reads only its own config slice). The laboratory, imaging and agenda go through
 * a circuit breaker (circuit-breaker.ts): a slow or fallen provider answers fast and is not called while it is down.
 */
export function createProviders(config: AppConfig, log?: BreakerEvents): Providers {
  const breaker = (providerName: string, callTimeoutMs: number) => ({ providerName, callTimeoutMs, config, log });
  return {
    mail: createSmtpMailClient(config),
    lab: withCircuitBreaker(
      createFhirLabClient(config),
      ["listOrders", "getOrder", "fetchReport", "exportReports"],
      breaker("laboratorio", config.LAB_TIMEOUT_MS),
    ),
    imaging: withCircuitBreaker(
      createDicomWebImagingClient(config),
      ["searchStudies", "findStudy", "fetchReport"],
      breaker("imagenología", config.IMAGING_TIMEOUT_MS),
    ),
    payments: createWebpayPlusClient(config),
    // appointmentsBetween (the reminders' search by date) is left outside: it reads many pages, each within the
    // client's own timeout, in a background job the engine retries; a patient's page never waits on it.
    scheduling: withCircuitBreaker(
      createFhirSchedulingClient(config),
      ["listAppointments", "getAppointment", "cancelAppointment", "confirmAppointment"],
      breaker("agenda", config.SCHEDULING_TIMEOUT_MS),
    ),
  };
}

/** Releases what the clients hold open (SMTP pool, HTTP agents). */
export function closeProviders(providers: Partial<Providers>): void {
  providers.mail?.close();
}
