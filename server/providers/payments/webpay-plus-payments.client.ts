import transbank from "transbank-sdk";
import type { z } from "zod";
import { AppError } from "../../lib/errors.ts";
import { webpayFormOrigin, type PaymentsConfig } from "./payments.config.ts";
import {
  PaymentRefusedError,
  providerTimeoutMessage,
  providerUnavailableMessage,
  ZCreatedTransaction,
  ZProviderTransaction,
  ZRefundResult,
  type PaymentsProvider,
} from "./payments.provider.ts";

// transbank-sdk is CommonJS: named imports fail under native ESM.
const { WebpayPlus, Options } = transbank;

/**
 * Maps what the SDK throws to the portal's errors, once. The SDK's TransbankError keeps no status code, only the text
 * "AxiosError: Request failed with status code 422\n<error_message>\n"; its own checks (lengths) throw a plain Error.
 */
export function toPaymentsError(error: unknown): Error {
  const text = error instanceof Error ? error.message : String(error);
  const [title = "", detail = ""] = text.split("\n");
  const status = /status code (\d{3})/.exec(title)?.[1];
  if (status) {
    const code = Number(status);
    if (code >= 400 && code < 500 && code !== 401 && code !== 403) return new PaymentRefusedError(code, detail.trim());
    return new AppError("PROVIDER_UNAVAILABLE", providerUnavailableMessage, { cause: error });
  }
  if (/timeout|ECONNABORTED|ETIMEDOUT/i.test(title)) return new AppError("PROVIDER_TIMEOUT", providerTimeoutMessage, { cause: error });
  if (title.startsWith("AxiosError") || (error instanceof Error && error.name === "TransbankError")) {
    return new AppError("PROVIDER_UNAVAILABLE", providerUnavailableMessage, { cause: error });
  }
  return new AppError("INTERNAL", "Error de sistema, por favor vuelva a intentarlo", { cause: error });
}

async function call<S extends z.ZodType>(schema: S, request: () => Promise<unknown>): Promise<z.output<S>> {
  let answer: unknown;
  try {
    answer = await request();
  } catch (error) {
    throw toPaymentsError(error);
  }
  const parsed = schema.safeParse(answer);
  if (!parsed.success) throw new AppError("PROVIDER_UNAVAILABLE", providerUnavailableMessage, { cause: parsed.error });
  return parsed.data;
}

/** Webpay Plus through Transbank's official SDK: base URL, commerce code and key from configuration. */
export function createWebpayPlusClient(config: PaymentsConfig): PaymentsProvider {
  const transaction = new WebpayPlus.Transaction(
    new Options(config.WEBPAY_COMMERCE_CODE, config.WEBPAY_API_KEY, config.WEBPAY_BASE_URL, config.WEBPAY_TIMEOUT_MS),
  );
  return {
    formOrigin: webpayFormOrigin(config),
    create: ({ buyOrder, sessionId, amount, returnUrl }) =>
      call(ZCreatedTransaction, () => transaction.create(buyOrder, sessionId, amount, returnUrl)),
    commit: (token) => call(ZProviderTransaction, () => transaction.commit(token)),
    status: (token) => call(ZProviderTransaction, () => transaction.status(token)),
    refund: (token, amount) => call(ZRefundResult, () => transaction.refund(token, amount)),
  };
}
