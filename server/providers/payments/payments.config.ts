import { z } from "zod";
import { providerTimeoutMs, providerUrl } from "../provider-config.ts";

/**
 * Card payments (Transbank Webpay Plus REST API, see notes/webpay-plus.md). The base URL is the API host the
 * transbank-sdk talks to (the mock of mocks/webpay in development); its origin is also where the browser POSTs the
 * payment form, so it joins the CSP form-action. Defaults are Transbank's public integration credentials.
 */
export const paymentsConfigSchema = z.object({
  WEBPAY_BASE_URL: providerUrl("http://localhost:4300"),
  WEBPAY_COMMERCE_CODE: z.string().min(1).default("597055555532"),
  WEBPAY_API_KEY: z.string().min(1).default("579B532A7440BB0C9079DED94D31EA1615BACEB56610332264630D42D0A36B1C"),
  WEBPAY_TIMEOUT_MS: providerTimeoutMs(15_000),
});

export type PaymentsConfig = z.infer<typeof paymentsConfigSchema>;
