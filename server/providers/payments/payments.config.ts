import { z } from "zod";

/** Transbank's public integration credentials for Webpay Plus (the mock accepts only these by default). */
export const WEBPAY_INTEGRATION_COMMERCE_CODE = "597055555532";
export const WEBPAY_INTEGRATION_API_KEY = "579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C";

/** Card payment provider (Webpay Plus through transbank-sdk); documented in .env.example. */
export const paymentsConfigSchema = z.object({
  /**
   * Webpay Plus base URL without trailing slash: the mock (http://localhost:4300/webpay), Transbank's integration
   * environment (https://webpay3gint.transbank.cl) or production (https://webpay3g.transbank.cl).
   */
  WEBPAY_BASE_URL: z
    .string()
    .url()
    .refine((url) => /^https?:\/\//.test(url), { error: "WEBPAY_BASE_URL debe ser una dirección http(s)" })
    .transform((url) => url.replace(/\/+$/, ""))
    .default("http://localhost:4300/webpay"),
  WEBPAY_COMMERCE_CODE: z
    .string()
    .regex(/^\d{1,12}$/, { error: "WEBPAY_COMMERCE_CODE debe ser el código de comercio numérico" })
    .default(WEBPAY_INTEGRATION_COMMERCE_CODE),
  WEBPAY_API_KEY: z.string().min(1).default(WEBPAY_INTEGRATION_API_KEY),
  /**
   * Origin of the payment form the browser is sent to, when it differs from WEBPAY_BASE_URL's (only the Docker setup,
   * where the portal reaches the mock as http://mocks:4300 and the browser as http://localhost:4300). Sets the CSP
   * form-action.
   */
  WEBPAY_FORM_ORIGIN: z
    .string()
    .url()
    .transform((url) => new URL(url).origin)
    .optional(),
  /** Time allowed for one call to the provider. */
  WEBPAY_TIMEOUT_MS: z.coerce.number().int().min(500).max(120_000).default(15_000),
  /** How long a started payment blocks a new one for the same bill (the provider's token lasts 5 minutes). */
  PAYMENT_PENDING_MINUTES: z.coerce.number().int().min(1).max(60).default(6),
  /** Interval of the sweep that settles commits lost to a closed tab or a network error (0 = off). */
  PAYMENT_SWEEP_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
});

export type PaymentsConfig = z.infer<typeof paymentsConfigSchema>;

/** Origin of the payment form: WEBPAY_FORM_ORIGIN, or the API's own (Transbank serves both from one host). */
export function webpayFormOrigin(config: Pick<PaymentsConfig, "WEBPAY_BASE_URL" | "WEBPAY_FORM_ORIGIN">): string {
  return config.WEBPAY_FORM_ORIGIN ?? new URL(config.WEBPAY_BASE_URL).origin;
}
