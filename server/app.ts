import { existsSync } from "node:fs";
import path from "node:path";
import { access, type RouteAccess } from "./http/route-access.ts";
import type { RouteDocs } from "./http/route-docs.ts";
import { z } from "zod";
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import fastifyCookie from "@fastify/cookie";
import type { AppConfig } from "./config.ts";
import type { Database } from "./db/database.ts";
import type { AppDeps } from "./deps.ts";
import { BackgroundWork } from "./lib/background.ts";
import { accountRoutes } from "./features/account/account.routes.ts";
import { auditRoutes } from "./features/audit/audit.routes.ts";
import { dataRightsRoutes } from "./features/data-rights/data-rights.routes.ts";
import { mailQueueRoutes } from "./features/mail/mail-queue.routes.ts";
import { authRoutes } from "./features/auth/auth.routes.ts";
import { claveUnicaApiRoutes, claveUnicaBrowserRoutes } from "./features/claveunica/claveunica.routes.ts";
import { secondFactorRoutes } from "./features/auth/second-factor.routes.ts";
import { billsRoutes } from "./features/bills/bills.routes.ts";
import { caregiversRoutes } from "./features/caregivers/caregivers.routes.ts";
import type { CaregiverPart } from "./contract/caregivers.ts";
import { clinicsRoutes } from "./features/clinics/clinics.routes.ts";
import { imagingRoutes } from "./features/results/imaging.routes.ts";
import { laboratoryRoutes } from "./features/results/laboratory.routes.ts";
import { appointmentsRoutes } from "./features/appointments/appointments.routes.ts";
import { noticesRoutes } from "./features/notices/notices.routes.ts";
import { registerNoticeJobs } from "./features/notices/notice-jobs.ts";
import { reminderCron, sendAppointmentReminders } from "./features/appointments/appointment-reminders.ts";
import { registerReminderJobs } from "./features/appointments/reminder-jobs.ts";
import { noticeCron, pollNewResultNotices } from "./features/notices/notices.service.ts";
import { reportsRoutes } from "./features/results/reports.routes.ts";
import { paymentReturnRoute, paymentsRoutes } from "./features/payments/payments.routes.ts";
import { registerPaymentSweep } from "./features/payments/payment-sweep.ts";
import { termsRoutes } from "./features/terms/terms.routes.ts";
import { usersRoutes } from "./features/users/users.routes.ts";
import { ZClinicQuery } from "./contract/params.ts";
import { registerApiDocs } from "./http/api-docs.ts";
import { registerErrorHandler, toErrorBody } from "./http/error-handler.ts";
import { registerInputGuard } from "./http/input-guard.ts";
import { answerClientError } from "./http/client-errors.ts";
import { registerSecurityHeaders } from "./http/security-headers.ts";
import { JSON_BODY_LIMIT, registerMultipart } from "./http/uploads.ts";
import { appPreloadHeader, indexHtmlHeaders, registerCompression, registerWebAssets } from "./http/web-assets.ts";
import { parseInput } from "./http/validate.ts";
import { closeProviders, createProviders, type Providers } from "./providers/index.ts";
import { createMailQueue } from "./providers/mail/mail-queue.ts";
import { createJobEngine } from "./lib/job-engine.ts";
import { registerAccessTokens } from "./lib/tokens.ts";
import { connectUserCaches, createUserCaches } from "./lib/user-cache.ts";
import { contextFactory } from "./trpc/context.ts";
import { appRouter } from "./trpc/router.ts";
import { trpcRoutes } from "./trpc/fastify-handler.ts";
import { createOps, registerOps } from "./ops/index.ts";
import { childLoggerFactory, loggerOptions, requestIdOptions } from "./ops/logging.ts";
import { registerWarmUpGate } from "./ops/warm-up.ts";

export const API_PREFIX = "/api/rcr/v1";

export interface BuildAppOptions {
  config: AppConfig;
  db: Database;
  /** Provider instances to use instead of the real clients (tests swap any of them); the rest come from config. */
  providers?: Partial<Providers>;
  logger?: boolean;
  /** Where the JSON log goes instead of stdout (tests read it). */
  logStream?: NodeJS.WritableStream;
  /**
   * Leaves the background jobs (the job engine and the start-up search for result notices) to `app.startBackgroundJobs()`:
   * main.ts holds them on PostgreSQL and starts them after the warm-up, whose transaction is rolled back
   * (ops/warm-up.ts); on the embedded PGlite there is no such warm-up and they start at build.
   */
  holdBackgroundJobs?: boolean;
}

/**
 * How long a replica keeps an idle keep-alive connection: longer than the proxy in front reuses one (Caddy's
 * reverse_proxy keeps its upstream connections 2 minutes idle). With Fastify's default (72 s) the proxy could write a
 * request into a connection the replica had just closed; it repeats a GET on the other replica, but a POST (a payment,
 * a bill) would reach the patient as a 502.
 */
export const IDLE_CONNECTION_MS = 125_000;

/** Builds the portal: security headers → REST contract → tRPC → web app, with one error handler. */
export async function buildApp({
  config,
  db,
  providers,
  logger,
  logStream,
  holdBackgroundJobs = false,
}: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger === false ? false : loggerOptions(config, logStream),
    ...requestIdOptions,
    childLoggerFactory,
    // Trust exactly the configured number of proxy hops, so a forged X-Forwarded-For cannot pick the address.
    trustProxy: (_address: string, hop: number) => hop < config.TRUST_PROXY_HOPS,
    // JSON bodies of every route are a few hundred bytes; routes that take uploads declare their own bodyLimit.
    bodyLimit: JSON_BODY_LIMIT,
    keepAliveTimeout: IDLE_CONNECTION_MS,
    // Oversized headers and malformed framing never reach a route: answer them in Spanish on the socket.
    clientErrorHandler: answerClientError,
    // Errors Fastify raises before routing (malformed or oversized addresses) answer like every other error.
    frameworkErrors: (error, _request, reply) => {
      const body = toErrorBody(error);
      // The reply here is typed for a route schema it does not have.
      void (reply as unknown as FastifyReply).status(body.statusCode).send(body);
    },
  });
  const ownProviders = createProviders(config, app.log);
  const tokens = await registerAccessTokens(app, config.JWT_SECRET, config.ACCESS_TOKEN_TTL_MINUTES);
  const cache = createUserCaches(config.USER_CACHE_SECONDS * 1000);
  const disconnectCaches = await connectUserCaches(db, cache);
  app.addHook("onClose", disconnectCaches);
  const ops = createOps(app, config, db);
  const logError = (error: unknown, message: string) => app.log.error({ err: error }, message);
  // One durable job engine per process (pg-boss in the portal's database), when some job needs it: mail through the
  // durable queue (unless a caller, a test, brought its own mail provider, or MAIL_QUEUE=false), result notices,
  // appointment reminders, the payment sweep.
  const withMailQueue = !providers?.mail && config.MAIL_QUEUE;
  const jobs = withMailQueue || config.PAYMENT_SWEEP_SECONDS > 0 ? createJobEngine({ sql: db.executeSql, log: app.log }) : null;
  const mailQueue =
    jobs && withMailQueue
      ? createMailQueue({
          engine: jobs,
          transport: ownProviders.mail,
          secret: config.JWT_SECRET,
          retrySeconds: config.MAIL_RETRY_SECONDS,
          log: app.log,
        })
      : null;
  const deps: AppDeps = {
    config,
    tokens,
    cache,
    prisma: db.prisma,
    sql: db.executeSql,
    providers: { ...ownProviders, ...providers, ...(mailQueue ? { mail: mailQueue } : {}) },
    mailQueue,
    jobs,
    logError,
    logWarn: (details, message) => app.log.warn(details, message),
    background: new BackgroundWork(logError),
    redis: ops.redis,
    metrics: ops.metrics.outcomes,
  };
  // Notices need the durable mail queue: their mail must survive an SMTP outage.
  const noticesCron = noticeCron(config);
  deps.noticeJobs =
    jobs && mailQueue ? registerNoticeJobs({ engine: jobs, cron: noticesCron, run: () => pollNewResultNotices(deps) }) : null;
  deps.reminderJobs =
    jobs && mailQueue
      ? registerReminderJobs({ engine: jobs, cron: reminderCron(config), run: (now) => sendAppointmentReminders(deps, { now }) })
      : null;
  if (jobs) registerPaymentSweep(deps, jobs);
  let backgroundJobsStarted: Promise<void> | undefined;
  const startBackgroundJobs = () =>
    (backgroundJobsStarted ??= (async () => {
      await jobs?.keepStarting();
      // A search at start-up too, so what arrived while the portal was down is not left for the next slot.
      if (noticesCron) deps.noticeJobs?.runNow().catch((error: unknown) => app.log.warn({ err: error }, "result notices: not started"));
    })());
  if (holdBackgroundJobs) jobs?.hold();
  else void startBackgroundJobs();
  app.decorate("deps", deps);
  app.decorate("startBackgroundJobs", startBackgroundJobs);
  app.addHook("onClose", async () => {
    // Mail handed to the queue after an answer (background work) is queued before the engine stops.
    await deps.background.settled();
    await jobs?.stop();
    closeProviders(ownProviders);
  });
  // Every route with its declared access, as registered: the security suite builds its permission matrix from it.
  const routeTable: RouteTableEntry[] = [];
  app.decorate("routeTable", routeTable);
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat())
      routeTable.push({
        method,
        url: route.url,
        access: route.config?.access,
        firstLogin: route.config?.firstLogin ?? false,
        secondFactor: route.config?.secondFactor ?? false,
        caregiverPart: route.config?.caregiverPart,
        docs: route.config?.docs,
      });
  });

  registerErrorHandler(app);
  // The real-route warm-up runs on a PostgreSQL server only (an embedded PGlite has one connection for everything).
  registerWarmUpGate(app, db.target.kind === "postgres" ? db.pool : undefined);
  await registerOps(app, ops, { config, db, trpcProcedures: new Set(Object.keys(appRouter._def.procedures)) });
  registerInputGuard(app);
  // tRPC takes JSON only; its adapter would stream anything else (multipart) into FormData parsing and answer 500.
  // The per-request hooks that wait for nothing are callback hooks: an async one costs every request a promise and a
  // turn of the microtask queue (issue 46 §1).
  app.addHook("onRequest", (request, _reply, done) => {
    const type = request.headers["content-type"];
    if (request.url.startsWith("/trpc") && type !== undefined && !/^application\/json\s*(;|$)/i.test(type)) {
      return done(Object.assign(new Error("unsupported media type"), { statusCode: 415, code: "FST_ERR_CTP_INVALID_MEDIA_TYPE" }));
    }
    done();
  });
  registerSecurityHeaders(app, config);
  // Cookies carry only the device cookie of a login (server/lib/login-throttle.ts); sessions stay in bearer tokens.
  await app.register(fastifyCookie);
  await registerMultipart(app);
  await registerCompression(app);
  // Answers carry personal data: neither the REST contract nor tRPC may be cached.
  app.addHook("onSend", (request, reply, payload, done) => {
    const isData = request.url.startsWith(API_PREFIX) || request.url.startsWith("/trpc");
    if (isData && !reply.hasHeader("Cache-Control")) reply.header("Cache-Control", "no-store");
    done(null, payload);
  });

  await app.register(
    async (api) => {
      // ?clinic= rides on most calls of the contract (SPEC §7): checked here once for every route of the prefix.
      api.addHook("onRequest", (request, _reply, done) => {
        try {
          parseInput(ZClinicQuery, request.query);
          done();
        } catch (error) {
          done(error as Error);
        }
      });
      const healthDocs = { tag: "Estado", summary: "La API y su base de datos responden", response: z.object({ status: z.literal("ok") }) };
      api.get("/health", access("public", healthDocs), async () => {
        await deps.prisma.$queryRaw`SELECT 1`;
        return { status: "ok" };
      });
      await api.register(authRoutes, { deps });
      await api.register(claveUnicaApiRoutes, { deps });
      await api.register(secondFactorRoutes, { deps });
      await api.register(accountRoutes, { deps });
      await api.register(termsRoutes, { deps });
      await api.register(clinicsRoutes, { deps });
      await api.register(usersRoutes, { deps });
      await api.register(caregiversRoutes, { deps });
      await api.register(laboratoryRoutes, { deps });
      await api.register(appointmentsRoutes, { deps });
      await api.register(noticesRoutes, { deps });
      await api.register(imagingRoutes, { deps });
      await api.register(reportsRoutes, { deps });
      await api.register(billsRoutes, { deps });
      await api.register(paymentsRoutes, { deps });
      await api.register(auditRoutes, { deps });
      await api.register(mailQueueRoutes, { deps });
      await api.register(dataRightsRoutes, { deps });
    },
    { prefix: API_PREFIX },
  );

  registerApiDocs(app, routeTable, API_PREFIX);
  await app.register(paymentReturnRoute);
  await app.register(claveUnicaBrowserRoutes, { deps });

  await app.register(trpcRoutes, {
    prefix: "/trpc",
    router: appRouter,
    createContext: contextFactory(deps),
    // Unexpected errors are logged like REST's (the error handler), with the procedure's path.
    onError({ error, path }) {
      if (error.code !== "INTERNAL_SERVER_ERROR") return;
      let cause: unknown = error;
      while (cause instanceof Error && cause.name === "TRPCError" && cause.cause) cause = cause.cause;
      deps.logError(cause, `unexpected error in tRPC ${path ?? "?"}`);
    },
  });

  const webDir = path.resolve(config.WEB_DIST_DIR);
  const hasWeb = existsSync(path.join(webDir, "index.html"));
  if (hasWeb) await registerWebAssets(app, webDir);
  const appPreload = hasWeb ? appPreloadHeader(webDir) : null;

  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith("/api/") || request.url.startsWith("/trpc");
    if (!isApi && hasWeb && request.method === "GET") {
      return reply.headers(indexHtmlHeaders(appPreload, request.url)).sendFile("index.html");
    }
    return reply.status(404).send({ statusCode: 404, error: "NOT_FOUND", message: "Recurso no encontrado" });
  });

  return app;
}

export interface RouteTableEntry {
  method: string;
  url: string;
  access: RouteAccess | undefined;
  /** Open to a patient who has not finished the first login (see access()). */
  firstLogin: boolean;
  /** Open to a password-only session awaiting its second factor (verify-otp, logout). */
  secondFactor: boolean;
  /** Acts for a dependent named by X-Actuar-Por through a caregiver link covering this part (issue 30). */
  caregiverPart?: CaregiverPart;
  docs: RouteDocs | undefined;
}

declare module "fastify" {
  interface FastifyInstance {
    deps: AppDeps;
    routeTable: readonly RouteTableEntry[];
    /**
     * Starts the job engine and the start-up search for notices, once (done at build unless built with
     * holdBackgroundJobs); resolves when the engine's first start attempt has settled (never rejects).
     */
    startBackgroundJobs(): Promise<void>;
  }
}
