import { z } from "zod";
import { paymentsConfigSchema } from "./providers/payments/payments.config.ts";

// Configuration comes only from the environment, validated at start-up (documented in .env.example).

export const DEV_JWT_SECRET = "desarrollo-no-usar-en-produccion-0123456789";

const bool = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

const coreConfigSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  HOST: z.string().default("localhost"),
  PORT: z.coerce.number().int().min(0).max(65535).default(4200),
  /** Unset → embedded PGlite under PGLITE_DIR. */
  DATABASE_URL: z.string().url().optional(),
  PGLITE_DIR: z.string().default("./var/pglite"),
  JWT_SECRET: z.string().min(32, "JWT_SECRET debe tener al menos 32 caracteres").default(DEV_JWT_SECRET),
  ACCESS_TOKEN_TTL_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(480),
  RESET_TOKEN_TTL_MINUTES: z.coerce.number().int().min(1).max(60).default(60),
  /** Reset mails per account per hour; further requests are answered the same and send nothing. */
  RESET_MAX_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).default(5),
  LOGIN_WINDOW_MINUTES: z.coerce.number().int().min(1).default(60),
  LOGIN_MAX_FAILURES_PER_RUT: z.coerce.number().int().min(1).default(10),
  LOGIN_MAX_FAILURES_PER_IP: z.coerce.number().int().min(1).default(50),
  /** Proxy hops in front of the server (0 = none): decides which address rate limits and logs use. */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(5).default(0),
  SMTP_HOST: z.string().default("localhost"),
  SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(2525),
  SMTP_SECURE: bool.default(false),
  SMTP_USER: z.string().optional(),
  SMTP_PASSWORD: z.string().optional(),
  MAIL_FROM: z.string().default("Portal Pacientes <no-responder@portalpacientes.cl>"),
  /** Public address of each clinic's portal; {alias} is the clinic alias. Used in e-mailed links. */
  CLINIC_PORTAL_URL_TEMPLATE: z.string().default("http://{alias}.localhost:4200"),
  /** Scheduling page of a center; {centerId} is the external center id (CODE@number). */
  SCHEDULING_URL_TEMPLATE: z.string().default("http://localhost:4300/agenda?externalCenterId={centerId}"),
  /** Laboratory results site by order number; {labPort} is the clinic's port, {alias} its alias. */
  LAB_SITE_URL_TEMPLATE: z.string().default("http://localhost:{labPort}/resultados"),
  /** The shared imaging login page of every clinic. */
  IMAGING_LOGIN_URL: z.string().default("http://localhost:4300/imagenologia/login"),
  TERMS_VERSION: z.string().default("2026-01"),
  /** Folder of the built web app served by the server (npm run build). */
  WEB_DIST_DIR: z.string().default("./dist/web"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
});

// Each provider's settings are a slice of their own (server/providers/<name>/<name>.config.ts).
const configSchema = coreConfigSchema.extend(paymentsConfigSchema.shape);

export type AppConfig = z.infer<typeof configSchema>;

/** Reads and validates the configuration; refuses to run production with development defaults. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Record<keyof AppConfig, string>> = {}): AppConfig {
  const parsed = configSchema.safeParse({ ...env, ...overrides });
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ");
    throw new Error(`Configuración inválida: ${details}`);
  }
  const config = parsed.data;
  if (config.NODE_ENV === "production" && config.JWT_SECRET === DEV_JWT_SECRET) {
    throw new Error("Configuración inválida: JWT_SECRET usa el valor de desarrollo; defina un secreto propio en producción.");
  }
  return config;
}
