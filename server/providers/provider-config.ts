import { z } from "zod";

/** An http(s) base address of a provider (no trailing slash). */
export const providerUrl = (fallback: string) =>
  z
    .string()
    .url()
    .refine((value) => /^https?:\/\//i.test(value), { error: "debe ser una dirección http(s)" })
    .transform((value) => value.replace(/\/+$/, ""))
    .default(fallback);

/** How long one call to a provider may take before it fails with PROVIDER_TIMEOUT (504). */
export const providerTimeoutMs = (fallback: number) => z.coerce.number().int().min(100).max(120_000).default(fallback);

/** A credential that may be unset; an empty value counts as unset. */
export const optionalSecret = z
  .string()
  .optional()
  .transform((value) => value || undefined);
