import { z } from "zod";
import { envBoolean } from "../lib/env.ts";
import { ZAppRole } from "../db/roles.ts";

/** Operation settings: Redis, overload refusal, shutdown, metrics (docs/operacion.md; documented in .env.example). */
export const opsConfigSchema = z.object({
  /** Shared state of several instances (login throttling). Unset → the database keeps it (also shared, but dearer). */
  REDIS_URL: z
    .string()
    .url()
    .refine((url) => /^rediss?:\/\//.test(url), { error: "REDIS_URL debe ser una dirección redis:// o rediss://" })
    .optional(),
  /** Prefix of every Redis key the portal writes, so several portals (or tests) can share one Redis. */
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[\w:.-]{0,64}$/, { error: "REDIS_KEY_PREFIX admite letras, dígitos, '_', ':', '.' y '-' (hasta 64)" })
    .default("pp:"),
  /** Event-loop delay (ms) past which new requests get 503 instead of queueing; 0 = never refuse for that. */
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(1000),
  /** Heap in use (MB) past which new requests get 503; 0 = no limit. */
  OVERLOAD_MAX_HEAP_MB: z.coerce.number().int().min(0).default(0),
  /** Retry-After (seconds) of an overload 503. */
  OVERLOAD_RETRY_AFTER_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  /** On SIGTERM/SIGINT: how long requests in flight may take to finish before the process exits anyway. */
  SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(1).max(600).default(10),
  /** When set, /metrics answers only `Authorization: Bearer <token>` (from anywhere); unset → only direct private calls. */
  METRICS_TOKEN: z.string().min(16, "METRICS_TOKEN debe tener al menos 16 caracteres").optional(),
  /**
   * A demonstration with NODE_ENV=production: lets the portal start on the simulators and Transbank's integration
   * credentials, which production otherwise refuses (production-guard.ts).
   */
  PORTAL_DEMO: envBoolean.default(false),
  /**
   * PostgreSQL role the replicas connect as (data rights only). Set where migrations run as the owner role: after each
   * migration the owner grants this role what the portal needs and no more (server/db/roles.ts).
   */
  DATABASE_APP_ROLE: ZAppRole.optional(),
});
