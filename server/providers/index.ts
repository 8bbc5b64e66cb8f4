import type { AppConfig } from "../config.ts";
import type { PaymentsProvider } from "./payments/payments.provider.ts";
import { createWebpayPlusClient } from "./payments/webpay-plus-payments.client.ts";

/** The external providers the features talk to; tests pass their own. */
export interface Providers {
  payments: PaymentsProvider;
}

/** The default provider instances, built from configuration in this one place. */
export function createProviders(config: AppConfig): Providers {
  return { payments: createWebpayPlusClient(config) };
}
