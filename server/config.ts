import { z } from "zod";
import { envBoolean } from "./lib/env.ts";
import { imagingConfigSchema } from "./providers/imaging/imaging.config.ts";
import { labConfigSchema } from "./providers/lab/lab.config.ts";
import { mailConfigSchema, mailQueueConfigSchema } from "./providers/mail/mail.config.ts";
import { paymentsConfigSchema } from "./providers/payments/payments.config.ts";
import { schedulingConfigSchema } from "./providers/scheduling/scheduling.config.ts";
import { opsConfigSchema } from "./ops/ops.config.ts";
import { breakerConfigSchema } from "./providers/circuit-breaker.ts";
import { claveUnicaConfigSchema, claveUnicaSettings } from "./features/claveunica/claveunica.config.ts";
import { resultsConfigSchema } from "./features/results/results.config.ts";
import { appointmentsConfigSchema } from "./features/appointments/appointments.config.ts";
import { generateSecret, installationSecret, secretProblem } from "./lib/secrets.ts";

// Configuration comes only from the environment, validated at start-up (documented in .env.example).

/** Where development keeps the signing secret generated for this installation (never committed: ./var is ignored). */
export const DEV_SECRET_FILE = "./var/jwt-secret";

/** The portal's own settings; each provider's settings are a slice of its own (server/providers/<name>/<name>.config.ts). */
const portalConfigSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().default("localhost"),
  PORT: z.coerce.number().int().min(0).max(65535).default(4200),
  /** Unset → embedded PGlite under PGLITE_DIR. */
  DATABASE_URL: z.string().url().optional(),
  PGLITE_DIR: z.string().default("./var/pglite"),
  /** Loopback port where the process that owns PGLITE_DIR serves it (PostgreSQL protocol) to commands, psql and GUIs. */
  PGLITE_PORT: z.coerce.number().int().min(0).max(65535).default(5433),
  /** How long a command waits for the owner of PGLITE_DIR to answer before giving up without writing anything. */
  PGLITE_OWNER_WAIT_SECONDS: z.coerce.number().min(0).max(600).default(30),
  /**
   * Token signing secret. Production: required. Development: unset → generated once into DEV_SECRET_FILE.
   * Tests: unset → random per process. Outside tests it must not be a published value and must carry 32+ bytes of entropy.
   */
  JWT_SECRET: z.string().min(32, "JWT_SECRET debe tener al menos 32 caracteres").optional(),
  /**
   * Key material that seals the second factor's TOTP secrets at rest (issue 42); unset → derived from JWT_SECRET. To
   * rotate: the new value here, the old one in SECOND_FACTOR_KEY_PREVIOUS; the next start re-seals every secret.
   */
  SECOND_FACTOR_KEY: z.string().min(32, "SECOND_FACTOR_KEY debe tener al menos 32 caracteres").optional(),
  SECOND_FACTOR_KEY_PREVIOUS: z.string().min(32, "SECOND_FACTOR_KEY_PREVIOUS debe tener al menos 32 caracteres").optional(),
  ACCESS_TOKEN_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(480),
  RESET_TOKEN_TTL_MINUTES: z.coerce.number().int().min(1).max(60).default(60),
  /** Reset mails per account per hour; further requests are answered the same and send nothing. */
  RESET_MAX_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).default(5),
  /** Failed-login counters restart after this long without reaching a limit (see login-throttle.ts). */
  LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).default(60),
  /** Failures of one RUT from one address before back-off. */
  LOGIN_MAX_FAILURES_PER_PAIR: z.coerce.number().int().min(1).default(5),
  /** Failures of one RUT from all addresses before back-off for the addresses that failed on it (ASVS: ≤ 100 per hour). */
  LOGIN_MAX_FAILURES_PER_RUT: z.coerce.number().int().min(1).default(30),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(50),
  /** First back-off wait; it doubles with every attempt past a limit, up to LOGIN_BACKOFF_MAX_MINUTES. */
  LOGIN_BACKOFF_BASE_SECONDS: z.coerce.number().int().min(1).default(60),
  LOGIN_BACKOFF_MAX_MINUTES: z.coerce.number().int().min(1).default(60),
  /**
   * Refused reaches for data that is not the caller's (X-Actuar-Por without a live link; another's or a missing bill,
   * file or payment) one patient account may make in REFUSED_ACCESS_WINDOW_MINUTES; past it the answer is 429 until a
   * window has passed (server/lib/refused-access.ts). A patient browsing their own data and their dependents' makes none.
   */
  REFUSED_ACCESS_MAX_PER_ACCOUNT: z.coerce.number().int().min(1).default(30),
  REFUSED_ACCESS_WINDOW_MINUTES: z.coerce.number().int().min(1).default(60),
  /**
   * How long a signed-in user's row (and an executive's clinics) may be reused between requests. Every committed change
   * to the user drops it on every instance at once (PostgreSQL NOTIFY); without that feed nothing is cached. 0 = off.
   */
  USER_CACHE_SECONDS: z.coerce.number().int().min(0).max(3600).default(60),
  /** Proxy hops in front of the server (0 = none): decides which address rate limits and logs use. */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(5).default(0),
  /** Public address of each clinic's portal; {alias} is the clinic alias. Used in e-mailed links. */
  CLINIC_PORTAL_URL_TEMPLATE: z.string().default("http://{alias}.localhost:4200"),
  /** Scheduling page of a center; {centerId} is the external center id (CODE@number). */
  SCHEDULING_URL_TEMPLATE: z.string().default("http://localhost:4300/agenda?externalCenterId={centerId}"),
  /** Laboratory results site by order number; {labPort} is the clinic's port, {alias} its alias. */
  LAB_SITE_URL_TEMPLATE: z.string().default("http://localhost:{labPort}/resultados"),
  /** The shared imaging login page of every clinic. */
  IMAGING_LOGIN_URL: z.string().default("http://localhost:4300/imagenologia/login"),
  /**
   * Whether the portal applies pending migrations at start-up. Docker Compose turns it off: its one-shot migrate service
   * runs them once before any replica starts (a replica then waits in /readyz until they are applied).
   */
  MIGRATE_ON_START: envBoolean.default(true),
  /** Demo accounts (known passwords) on an empty database: default only in development; see wantsDemoData. */
  SEED_DEMO: envBoolean.optional(),
  TERMS_VERSION: z.string().default("2026-01"),
  /** Folder of the built web app served by the server (npm run build). */
  WEB_DIST_DIR: z.string().default("./dist/web"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Life of the signed report links the portal hands to the browser (laboratory and imaging PDFs). */
  RESULT_LINK_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(60),
  /** Life of the report links sent by e-mail ('Enviar por email'). */
  RESULT_MAIL_LINK_TTL_HOURS: z.coerce
    .number()
    .int()
    .min(1)
    .max(30 * 24)
    .default(72),
});

export const configSchema = portalConfigSchema
  .extend(mailConfigSchema.shape)
  .extend(mailQueueConfigSchema.shape)
  .extend(paymentsConfigSchema.shape)
  .extend(labConfigSchema.shape)
  .extend(imagingConfigSchema.shape)
  .extend(schedulingConfigSchema.shape)
  .extend(breakerConfigSchema.shape)
  .extend(resultsConfigSchema.shape)
  .extend(appointmentsConfigSchema.shape)
  .extend(claveUnicaConfigSchema.shape)
  .extend(opsConfigSchema.shape);

export type AppConfig = z.infer<typeof configSchema> & { JWT_SECRET: string };

/** Reads and validates the configuration; refuses to run production with development defaults. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Record<keyof AppConfig, string>> = {}): AppConfig {
  const parsed = configSchema.safeParse({ ...env, ...overrides });
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
    throw new Error(`Configuración inválida: ${details}`);
  }
  claveUnicaSettings(parsed.data);
  return { ...parsed.data, JWT_SECRET: signingSecret(parsed.data) };
}

function signingSecret(config: z.infer<typeof configSchema>): string {
  const secret = config.JWT_SECRET;
  if (secret === undefined) {
    if (config.NODE_ENV === "production") throw new Error("Configuración inválida: JWT_SECRET es obligatorio en producción.");
    return config.NODE_ENV === "test" ? generateSecret() : installationSecret(DEV_SECRET_FILE);
  }
  const problem = config.NODE_ENV === "test" ? null : secretProblem(secret);
  if (problem) throw new Error(`Configuración inválida: JWT_SECRET ${problem}.`);
  return secret;
}
