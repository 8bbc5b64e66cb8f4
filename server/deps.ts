import type { Redis } from "ioredis";
import type { AppConfig } from "./config.ts";
import type { PrismaClient } from "./generated/prisma/client.ts";
import type { Providers } from "./providers/index.ts";
import type { MailQueue } from "./providers/mail/mail-queue.ts";
import type { AccessTokens } from "./lib/tokens.ts";
import type { UserCaches } from "./lib/user-cache.ts";
import type { BackgroundWork } from "./lib/background.ts";
import type { NoticeJobs } from "./features/notices/notice-jobs.ts";
import type { ReminderJobs } from "./features/appointments/reminder-jobs.ts";
import type { Database } from "./db/adapters.ts";
import type { JobEngine } from "./lib/job-engine.ts";

/** What services need from the outside world; built once in buildApp and passed to every service call. */
export interface AppDeps {
  config: AppConfig;
  prisma: PrismaClient;
  /**
   * Parameterised SQL on the connections Prisma's adapter already uses (the pg pool, or the embedded PGlite), for the
   * hot list reads in the features' `*-reads.repository.ts` (issue 26); everything else goes through Prisma.
   */
  sql: Database["executeSql"];
  /** Mail, payments, lab and imaging clients (server/providers/). */
  providers: Providers;
  /** The durable outbound mail queue behind providers.mail (MAIL_QUEUE); null when mail is sent during the request. */
  mailQueue?: MailQueue | null;
  /**
   * The process's one durable job engine (pg-boss): mail, result notices, the payment sweep, reminders register their
   * jobs on it (registerJob, schedule, every); null when no job needs it (tests with their own mail provider).
   */
  jobs?: JobEngine | null;
  /** The scheduled search for new results to notify (server/features/notices); null when not running. */
  noticeJobs?: NoticeJobs | null;
  /** The daily reminders of tomorrow's appointments (server/features/appointments); null when not running. */
  reminderJobs?: ReminderJobs | null;
  /** Signs and verifies access tokens (@fastify/jwt, registered on the app). */
  tokens: AccessTokens;
  /** Per-process caches of the signed-in user's row and an executive's clinics, dropped on every committed change. */
  cache: UserCaches;
  /** Reports a failure of work that runs after the answer was sent (background mail). */
  logError(error: unknown, message: string): void;
  /** Something operators must look at, though nothing failed (a RUT under a guessing attack); absent in scripts. */
  logWarn?(details: Record<string, unknown>, message: string): void;
  /** Work that runs after the answer was sent (background mail), tracked so it can be awaited. */
  background: BackgroundWork;
  /** Shared state of several instances when REDIS_URL is set (login throttling); otherwise the database keeps it. */
  redis?: Redis | null;
  /** Business counters for /metrics (server/ops/metrics.ts); absent in scripts and benchmarks. */
  metrics?: OutcomeMetrics;
}

export type LoginOutcome = "ok" | "bad_credentials" | "throttled";
/** "started" / "start_failed" when a payment is created; the settled result (authorized, rejected, aborted, …) after. */
export type PaymentOutcome = "started" | "start_failed" | "authorized" | (string & {});

/** Counts outcomes the services already audit, without the services knowing about Prometheus. */
export interface OutcomeMetrics {
  loginOutcome(outcome: LoginOutcome, portal: "patient" | "staff"): void;
  /** A RUT went past its failed-login limit (once per window): someone is guessing its password. */
  loginRutLimitReached(): void;
  paymentOutcome(outcome: PaymentOutcome): void;
}

/** Who is asking: the network address and, once authenticated, the user. */
export interface RequestMeta {
  ip: string;
  /** The request's cookies (a device cookie of an earlier login, see server/lib/login-throttle.ts). */
  cookies?: Record<string, string | undefined>;
  /** The User-Agent header, kept with a session (which device signed in). */
  userAgent?: string;
  /** The X-Actuar-Por header: the dependent a caregiver acts for (issue 30; read by actingForPatient in lib/access.ts). */
  actingFor?: string;
}
