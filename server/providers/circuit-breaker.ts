import CircuitBreaker from "opossum";
import { z } from "zod";
import { AppError } from "../lib/errors.ts";
import { providerTimeoutMessage, providerUnavailableMessage } from "./provider-http.ts";

// A circuit breaker (opossum) in front of the laboratory and imaging clients (issue 24, "laboratorio lento, luego
// caído"). Each call has a deadline a little past the client's own timeout, so a page that makes two calls (patient id,
// then reports) still answers in about one timeout. After PROVIDER_BREAKER_MIN_CALLS calls within 10 s of which
// PROVIDER_BREAKER_ERROR_PERCENT failed (timeouts, refusals, 5xx), calls stop for PROVIDER_BREAKER_OPEN_SECONDS: each
// is answered at once with the provider's Spanish "no está disponible" message instead of piling up on a provider that
// is already drowning. Then one call goes through; if it works the circuit closes again.

export const breakerConfigSchema = z.object({
  PROVIDER_BREAKER_MIN_CALLS: z.coerce.number().int().min(1).default(5),
  PROVIDER_BREAKER_ERROR_PERCENT: z.coerce.number().int().min(1).max(100).default(50),
  PROVIDER_BREAKER_OPEN_SECONDS: z.coerce.number().min(0.1).max(600).default(10),
});
export type BreakerConfig = z.infer<typeof breakerConfigSchema>;

export interface BreakerEvents {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

/** Only the provider's failures count against it: a patient's 404 or a bad input is not the provider being down. */
const isProviderFailure = (error: unknown) =>
  error instanceof AppError ? error.code === "PROVIDER_TIMEOUT" || error.code === "PROVIDER_UNAVAILABLE" : true;

/** Wraps the asynchronous `methods` of `client` (the calls to the provider) in one breaker for the whole provider. */
export function withCircuitBreaker<T extends object>(
  client: T,
  methods: ReadonlyArray<keyof T>,
  options: { providerName: string; callTimeoutMs: number; config: BreakerConfig; log?: BreakerEvents },
): T & { breaker: CircuitBreaker } {
  const { providerName, config, log } = options;
  const breaker = new CircuitBreaker((call: () => Promise<unknown>) => call(), {
    timeout: options.callTimeoutMs + 300,
    volumeThreshold: config.PROVIDER_BREAKER_MIN_CALLS,
    errorThresholdPercentage: config.PROVIDER_BREAKER_ERROR_PERCENT,
    resetTimeout: config.PROVIDER_BREAKER_OPEN_SECONDS * 1000,
    rollingCountTimeout: 10_000,
    rollingCountBuckets: 10,
    errorFilter: (error: unknown) => !isProviderFailure(error),
  });
  breaker.on("open", () => log?.warn({ provider: providerName }, "circuit open: provider calls paused"));
  breaker.on("close", () => log?.info({ provider: providerName }, "circuit closed: provider answers again"));

  const wrapped = { ...client, breaker } as T & { breaker: CircuitBreaker };
  const slots = wrapped as Record<keyof T, unknown>;
  for (const key of methods) {
    const method = client[key] as (...args: unknown[]) => Promise<unknown>;
    slots[key] = (...args: unknown[]) =>
      // Open: the provider is not called at all and the caller gets the Spanish message at once.
      breaker
        .fire(() => method.apply(client, args))
        .catch((error: unknown) => {
          throw toProviderError(error, providerName);
        });
  }
  return wrapped;
}

function toProviderError(error: unknown, providerName: string): unknown {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string } | null)?.code;
  if (code === "ETIMEDOUT") return new AppError("PROVIDER_TIMEOUT", providerTimeoutMessage(providerName), { cause: error });
  if (code === "EOPENBREAKER" || code === "ESEMLOCKED")
    return new AppError("PROVIDER_UNAVAILABLE", providerUnavailableMessage(providerName), { cause: error });
  return error;
}
