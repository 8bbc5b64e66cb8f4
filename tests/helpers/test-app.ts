import { vi } from "vitest";
import type { FastifyInstance } from "fastify";
import { buildApp, API_PREFIX } from "../../server/app.ts";
import { loadConfig, type AppConfig } from "../../server/config.ts";
import { openDatabase, type Database } from "../../server/db/database.ts";
import { startMocks } from "../../mocks/start.ts";
import type { WebpayMockOptions } from "../../mocks/webpay/webpay-mock.ts";
import { freshDatabase } from "./fresh-database.ts";
import { normalizeRut } from "../../server/contract/rut.ts";
import { demoTotpSecret, fixtureTotpSecret, totpCode } from "./second-factor.ts";

export interface CaughtMessage {
  id: string;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  date: string;
}

export interface TestContext {
  app: FastifyInstance;
  db: Database;
  config: AppConfig;
  /** Base address of the provider mocks (laboratory at /fhir, imaging at /dicom-web, Webpay at /webpay). */
  mocksUrl: string;
  /** The mail catcher of mocks/, over real SMTP. */
  mail: {
    list(to?: string): Promise<CaughtMessage[]>;
    /** Waits (up to 45 s: mail goes through the durable queue) for a message to that address and returns the newest. */
    waitFor(to: string): Promise<CaughtMessage>;
    /**
     * Resolves once every mail handed over so far (by a request's background work) has left the durable queue: after
     * it, a mail that did not arrive was never sent. What a "no mail" assertion waits for, instead of a sleep.
     */
    settled(): Promise<void>;
    /** Forgets every mail caught so far, once the mail still on its way has arrived (see settled). */
    clear(): Promise<void>;
  };
  /**
   * Logs in through REST and returns the access token. For an account with a second factor (the demo staff, or
   * `totpSecret`) it completes the second step (POST /auth/verify-otp) with the current code.
   */
  login(rut: string, password: string, portal?: "patient" | "staff", options?: { totpSecret?: string }): Promise<string>;
  /** Just the password step: the answer of new-login / admin-login (payload.accessToken, payload.secondFactor). */
  passwordStep(rut: string, password: string, portal?: "patient" | "staff"): Promise<{ accessToken: string; secondFactor?: string }>;
  close(): Promise<void>;
}

export const api = (path: string) => `${API_PREFIX}${path}`;

/**
 * The portal over a fresh seeded database, with a real SMTP mail catcher and the provider mocks; one per test file.
 * In override values, {mocks} stands for the mocks' address (e.g. LAB_FHIR_BASE_URL: "{mocks}/fallas/caida/fhir").
 */
export async function createTestContext(
  overrides: Partial<Record<keyof AppConfig, string>> = {},
  options: {
    webpay?: WebpayMockOptions;
    /** A PostgreSQL server to create the test's database on (default TEST_DATABASE_URL). */ databaseServerUrl?: string;
  } = {},
): Promise<TestContext> {
  const mocks = await startMocks({ httpPort: 0, smtpPort: 0, webpay: options.webpay });
  const { db, drop } = await freshDatabase(options.databaseServerUrl ?? process.env.TEST_DATABASE_URL, "pp_test", { seeded: true });
  const withMocks = Object.fromEntries(
    Object.entries(overrides).map(([name, value]) => [name, value?.replaceAll("{mocks}", mocks.httpUrl)]),
  );
  const config = loadConfig(
    { NODE_ENV: "test" },
    {
      SMTP_PORT: String(mocks.smtpPort),
      LOG_LEVEL: "silent",
      LAB_FHIR_BASE_URL: `${mocks.httpUrl}/fhir`,
      SCHEDULING_FHIR_BASE_URL: `${mocks.httpUrl}/agenda/fhir`,
      IMAGING_DICOMWEB_BASE_URL: `${mocks.httpUrl}/dicom-web`,
      IMAGING_VIEWER_URL_TEMPLATE: `${mocks.httpUrl}/dicom-web/viewer?StudyInstanceUIDs={studyUid}`,
      WEBPAY_BASE_URL: `${mocks.httpUrl}/webpay`,
      PAYMENT_SWEEP_SECONDS: "0",
      // A delivery that failed once on a loaded machine is tried again after 5 s instead of the production 30 s.
      MAIL_RETRY_SECONDS: "5",
      // The embedded database runs on this event loop and the machine is shared: a slow moment is not an overload to
      // answer 503 to (0 turns the check off; the overload tests set their own limit).
      OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: "0",
      ...withMocks,
    },
  );
  const app = await buildApp({ config, db, logger: false });
  await app.ready();
  // The portal starts its job engine in the background (a replica may boot while the database restarts); a test reads
  // the engine's tables (pgboss.job) first thing, so it gets the portal once they exist.
  await app.deps.jobs?.start();

  const list = async (to?: string): Promise<CaughtMessage[]> => {
    const response = await fetch(`${mocks.httpUrl}/mail/messages${to ? `?to=${encodeURIComponent(to)}` : ""}`);
    return (await response.json()) as CaughtMessage[];
  };
  async function settled(): Promise<void> {
    await app.deps.background.settled();
    const queue = app.deps.mailQueue;
    if (!queue) return;
    await vi.waitFor(
      async () => {
        const pending = await queue.pending();
        if (pending > 0) throw new Error(`${pending} correos siguen en la cola`);
      },
      { timeout: 45_000, interval: 50 },
    );
  }
  const passwordStep = async (rut: string, password: string, portal: "patient" | "staff" = "patient") => {
    const response = await app.inject({
      method: "POST",
      url: api(portal === "staff" ? "/auth/admin-login" : "/auth/new-login"),
      payload: { rut, password },
    });
    if (response.statusCode !== 200) throw new Error(`login ${rut} failed: ${response.statusCode} ${response.body}`);
    return (response.json() as { payload: { accessToken: string; secondFactor?: string } }).payload;
  };
  return {
    app,
    db,
    config,
    mocksUrl: mocks.httpUrl,
    mail: {
      list,
      waitFor: (to) =>
        vi.waitFor(
          async () => {
            const [message] = await list(to);
            if (!message) throw new Error(`No llegó ningún correo a ${to}`);
            return message;
          },
          // Mail goes through the durable queue: one failed SMTP attempt on a loaded machine is retried after
          // MAIL_RETRY_SECONDS (5 here), and the mail still arrives.
          { timeout: 45_000, interval: 50 },
        ),
      settled,
      async clear() {
        // Mail still on its way (queued after an answer) was sent before the clear: it must not arrive after it.
        await settled();
        await fetch(`${mocks.httpUrl}/mail/messages`, { method: "DELETE" });
      },
    },
    passwordStep,
    async login(rut, password, portal = "patient", options = {}) {
      const first = await passwordStep(rut, password, portal);
      if (first.secondFactor !== "verify") return first.accessToken;
      const secret = options.totpSecret ?? demoTotpSecret(rut) ?? fixtureTotpSecret;
      // A code works once per account (replays are refused), and a test file logs the same person in many times within
      // one 30-second step: forget the last step used, as if a real person had waited for the next code.
      await db.prisma.user.updateMany({ where: { rut: normalizeRut(rut) }, data: { totpLastStep: null } });
      const response = await app.inject({
        method: "POST",
        url: api("/auth/verify-otp"),
        headers: bearer(first.accessToken),
        payload: { code: await totpCode(secret) },
      });
      if (response.statusCode !== 200) throw new Error(`verify-otp ${rut} failed: ${response.statusCode} ${response.body}`);
      return (response.json() as { payload: { accessToken: string } }).payload.accessToken;
    },
    async close() {
      await timedStep("the portal (app.close)", () => app.close());
      await timedStep("the test database (drop)", drop);
      await timedStep("the mocks (mocks.close)", () => mocks.close());
    },
  };
}

/** A step of closing a test context that takes long says so on stderr: a hook that times out then names its culprit. */
async function timedStep(name: string, step: () => Promise<void>): Promise<void> {
  const started = performance.now();
  const warn = setTimeout(() => process.stderr.write(`test context: closing ${name} has taken 5 s and goes on\n`), 5_000);
  try {
    await step();
  } finally {
    clearTimeout(warn);
    const seconds = (performance.now() - started) / 1000;
    if (seconds > 5) process.stderr.write(`test context: closing ${name} took ${seconds.toFixed(1)} s\n`);
  }
}

/**
 * A second portal instance on the test context's database, with its own pool (PostgreSQL) and its own caches: what
 * one instance changes, the other must hear of (the database's change feed).
 */
export async function secondInstance(ctx: TestContext): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const db = ctx.db.target.kind === "postgres" ? await openDatabase(ctx.db.target) : ctx.db;
  const app = await buildApp({ config: ctx.config, db, logger: false });
  await app.ready();
  return {
    app,
    async close() {
      await app.close();
      if (db !== ctx.db) await db.close();
    },
  };
}

export const demo = {
  admin: { rut: "11.111.111-1", password: "Admin2026" },
  executive: { rut: "22.222.222-2", password: "Ejecutivo2026" },
  patient: { rut: "12.345.678-5", password: "Paciente2026" },
  firstLogin: { rut: "15.555.555-6", password: "Temporal2026" },
  incomplete: { rut: "16.789.012-1", password: "Paciente2026" },
} as const;

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
