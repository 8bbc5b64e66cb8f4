import { existsSync } from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import { fastifyTRPCPlugin } from "@trpc/server/adapters/fastify";
import Fastify, { type FastifyInstance, type FastifyReply } from "fastify";
import type { AppConfig } from "./config.ts";
import type { Database } from "./db/database.ts";
import type { AppDeps } from "./deps.ts";
import { accountRoutes } from "./features/account/account.routes.ts";
import { authRoutes } from "./features/auth/auth.routes.ts";
import { clinicsRoutes } from "./features/clinics/clinics.routes.ts";
import { paymentReturnRoute, paymentsRoutes } from "./features/payments/payments.routes.ts";
import { startPaymentSweep } from "./features/payments/payments.service.ts";
import { termsRoutes } from "./features/terms/terms.routes.ts";
import { usersRoutes } from "./features/users/users.routes.ts";
import { registerErrorHandler, toErrorBody } from "./http/error-handler.ts";
import { serializeRequest } from "./http/log-redaction.ts";
import { registerNulGuard } from "./http/reject-nul.ts";
import { registerSecurityHeaders } from "./http/security-headers.ts";
import { createMailer, type Mailer } from "./lib/mailer.ts";
import { createProviders, type Providers } from "./providers/index.ts";
import { contextFactory } from "./trpc/context.ts";
import { appRouter, type AppRouter } from "./trpc/router.ts";

export const API_PREFIX = "/api/rcr/v1";

export interface BuildAppOptions {
  config: AppConfig;
  db: Database;
  mailer?: Mailer;
  /** Provider instances to use instead of the ones built from config (tests). */
  providers?: Partial<Providers>;
  logger?: boolean;
}

/** Builds the portal: security headers → REST contract → tRPC → web app, with one error handler. */
export async function buildApp({ config, db, mailer, providers, logger }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: logger === false ? false : { level: config.LOG_LEVEL, serializers: { req: serializeRequest } },
    // Trust exactly the configured number of proxy hops, so a forged X-Forwarded-For cannot pick the address.
    trustProxy: (_address: string, hop: number) => hop < config.TRUST_PROXY_HOPS,
    bodyLimit: 3 * 1024 * 1024,
    // Errors Fastify raises before routing (malformed or oversized addresses) answer like every other error.
    frameworkErrors: (error, _request, reply) => {
      const body = toErrorBody(error);
      // The reply here is typed for a route schema it does not have.
      void (reply as unknown as FastifyReply).status(body.statusCode).send(body);
    },
  });
  const deps: AppDeps = {
    config,
    prisma: db.prisma,
    mailer: mailer ?? createMailer(config),
    providers: { ...createProviders(config), ...providers },
    logError: (error, message) => app.log.error({ err: error }, message),
  };
  app.decorate("deps", deps);
  if (!mailer) app.addHook("onClose", async () => deps.mailer.close());
  const stopPaymentSweep = startPaymentSweep(deps);
  app.addHook("onClose", async () => stopPaymentSweep());

  registerErrorHandler(app);
  registerNulGuard(app);
  await registerSecurityHeaders(app, config);
  // Answers carry personal data: neither the REST contract nor tRPC may be cached.
  app.addHook("onSend", async (request, reply) => {
    const isData = request.url.startsWith(API_PREFIX) || request.url.startsWith("/trpc");
    if (isData && !reply.hasHeader("Cache-Control")) reply.header("Cache-Control", "no-store");
  });

  await app.register(
    async (api) => {
      api.get("/health", async () => {
        await deps.prisma.$queryRaw`SELECT 1`;
        return { status: "ok" };
      });
      await api.register(authRoutes, { deps });
      await api.register(accountRoutes, { deps });
      await api.register(termsRoutes, { deps });
      await api.register(clinicsRoutes, { deps });
      await api.register(usersRoutes, { deps });
      await api.register(paymentsRoutes, { deps });
    },
    { prefix: API_PREFIX },
  );

  await app.register(paymentReturnRoute);

  await app.register(fastifyTRPCPlugin, {
    prefix: "/trpc",
    trpcOptions: { router: appRouter, createContext: contextFactory(deps) } satisfies { router: AppRouter; createContext: unknown },
  });

  const webDir = path.resolve(config.WEB_DIST_DIR);
  const hasWeb = existsSync(path.join(webDir, "index.html"));
  if (hasWeb) await app.register(fastifyStatic, { root: webDir, wildcard: false, index: false });

  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith("/api/") || request.url.startsWith("/trpc");
    if (!isApi && hasWeb && request.method === "GET") {
      return reply.header("Cache-Control", "no-cache").sendFile("index.html");
    }
    return reply.status(404).send({ statusCode: 404, error: "NOT_FOUND", message: "Recurso no encontrado" });
  });

  return app;
}

declare module "fastify" {
  interface FastifyInstance {
    deps: AppDeps;
  }
}
