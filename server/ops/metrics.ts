import { timingSafeEqual } from "node:crypto";
import { BlockList, isIPv4 } from "node:net";
import type { FastifyInstance, FastifyRequest } from "fastify";
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import type { AppConfig } from "../config.ts";
import type { Database } from "../db/database.ts";
import type { LoginOutcome, OutcomeMetrics, PaymentOutcome } from "../deps.ts";
import { access } from "../http/route-access.ts";
import { watchAuditWrites, type AuditWriteTiming } from "../lib/audit.ts";
import { trackEventLoopDelay } from "./event-loop-delay.ts";
import { trackHeapAfterGc } from "./heap-after-gc.ts";

// Prometheus metrics at GET /metrics (prom-client), one registry per app instance (tests build several apps):
// HTTP requests and latency by route pattern (never the raw URL: no ids or RUTs in labels), method and status; the
// PostgreSQL pool; Node's defaults (event-loop lag, heap, GC); logins and payments by outcome.
//
// Not public: /metrics answers only a request that reaches the process directly from a loopback or private address
// without X-Forwarded-For / Forwarded (the reverse proxy always adds one, so nothing through the proxy gets it), or —
// when METRICS_TOKEN is set — only `Authorization: Bearer <METRICS_TOKEN>`. Anything else gets the same 404 as an
// unknown path. Declared access("public") for the route table: the check is this file's, not a session's.

const paymentOutcomes = new Set([
  "started",
  "start_failed",
  "authorized",
  "rejected",
  "aborted",
  "timeout",
  "expired",
  "mismatch",
  "not-paid",
  "create-failed",
]);

export interface AppMetrics {
  registry: Registry;
  outcomes: OutcomeMetrics;
  /** Stops the event-loop delay timer (the app's onClose). */
  stop(): void;
}

export function createMetrics(db: Database): AppMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  const eventLoopDelay = trackEventLoopDelay(registry);
  const heapAfterGc = trackHeapAfterGc(registry);
  const logins = new Counter({
    name: "portal_logins_total",
    help: "Intentos de inicio de sesión por portal y resultado (ok, bad_credentials, throttled)",
    labelNames: ["portal", "outcome"] as const,
    registers: [registry],
  });
  const rutLimits = new Counter({
    name: "portal_login_rut_limit_reached_total",
    help: "Veces que un RUT superó su límite de intentos fallidos (una por ventana): alguien intenta adivinar su contraseña",
    registers: [registry],
  });
  const payments = new Counter({
    name: "portal_payments_total",
    help: "Pagos por resultado: started/start_failed al crearlos; authorized, rejected, aborted, timeout, expired… al cerrarlos",
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const pool = db.pool;
  if (pool) {
    new Gauge({
      name: "portal_db_pool_connections",
      help: "Conexiones del pool de PostgreSQL: total, idle (libres) y waiting (consultas esperando conexión)",
      labelNames: ["state"] as const,
      registers: [registry],
      collect() {
        this.set({ state: "total" }, pool.totalCount);
        this.set({ state: "idle" }, pool.idleCount);
        this.set({ state: "waiting" }, pool.waitingCount);
      },
    });
  }
  const auditBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];
  const auditInserts = new Histogram({
    name: "portal_audit_insert_seconds",
    help: "Duración de cada INSERT de filas de auditoría, con su commit (varias solicitudes comparten uno)",
    buckets: auditBuckets,
    registers: [registry],
  });
  const auditRowWaits = new Histogram({
    name: "portal_audit_row_wait_seconds",
    help: "Espera de cada fila de auditoría desde que la solicitud la pide hasta su commit: la respuesta auditada la espera",
    buckets: auditBuckets,
    registers: [registry],
  });
  const observeAudit = ({ insertSeconds, rowWaitSeconds }: AuditWriteTiming) => {
    auditInserts.observe(insertSeconds);
    for (const seconds of rowWaitSeconds) auditRowWaits.observe(seconds);
  };
  const unwatchAudit = [watchAuditWrites(db.executeSql, observeAudit), watchAuditWrites(db.prisma, observeAudit)];
  return {
    registry,
    stop: () => {
      eventLoopDelay.stop();
      heapAfterGc.stop();
      for (const unwatch of unwatchAudit) unwatch();
    },
    outcomes: {
      loginOutcome: (outcome: LoginOutcome, portal) => logins.inc({ portal, outcome }),
      loginRutLimitReached: () => rutLimits.inc(),
      paymentOutcome: (outcome: PaymentOutcome) => payments.inc({ outcome: paymentOutcomes.has(outcome) ? outcome : "other" }),
    },
  };
}

const privateAddresses = new BlockList();
privateAddresses.addSubnet("127.0.0.0", 8, "ipv4");
privateAddresses.addSubnet("10.0.0.0", 8, "ipv4");
privateAddresses.addSubnet("172.16.0.0", 12, "ipv4");
privateAddresses.addSubnet("192.168.0.0", 16, "ipv4");
privateAddresses.addAddress("::1", "ipv6");
privateAddresses.addSubnet("fc00::", 7, "ipv6");

export function isPrivateAddress(address: string | undefined): boolean {
  if (!address) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const ip = mapped ?? address;
  return privateAddresses.check(ip, isIPv4(ip) ? "ipv4" : "ipv6");
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether this request may read /metrics (see the header comment). */
export function mayReadMetrics(request: FastifyRequest, config: AppConfig): boolean {
  if (config.METRICS_TOKEN) {
    const header = request.headers.authorization ?? "";
    return header.startsWith("Bearer ") && sameSecret(header.slice("Bearer ".length), config.METRICS_TOKEN);
  }
  const proxied = request.headers["x-forwarded-for"] !== undefined || request.headers.forwarded !== undefined;
  return !proxied && isPrivateAddress(request.socket.remoteAddress);
}

/** Route label of a request: the route pattern, or one label for everything no route matched (404s, the web app). */
function routeLabel(request: FastifyRequest, procedures: ReadonlySet<string>): string {
  const pattern = request.routeOptions.url;
  if (pattern === undefined) return "(sin ruta)";
  if (pattern.startsWith("/trpc/")) {
    // One route serves every procedure; the procedure names are a fixed set, batches are labelled as such.
    const url = request.url;
    const queryAt = url.indexOf("?");
    const name = url.slice("/trpc/".length, queryAt === -1 ? undefined : queryAt);
    return procedures.has(name) ? `/trpc/${name}` : "/trpc/*";
  }
  return pattern;
}

export function registerMetrics(app: FastifyInstance, metrics: AppMetrics, config: AppConfig, procedures: ReadonlySet<string>): void {
  app.addHook("onClose", async () => metrics.stop());
  const requests = new Counter({
    name: "portal_http_requests_total",
    help: "Solicitudes HTTP por ruta (patrón), método y código de estado",
    labelNames: ["route", "method", "status"] as const,
    registers: [metrics.registry],
  });
  const latency = new Histogram({
    name: "portal_http_request_duration_seconds",
    help: "Duración de las solicitudes HTTP por ruta (patrón), método y código de estado",
    labelNames: ["route", "method", "status"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [metrics.registry],
  });
  app.addHook("onResponse", (request, reply, done) => {
    const labels = { route: routeLabel(request, procedures), method: request.method, status: String(reply.statusCode) };
    requests.inc(labels);
    latency.observe(labels, reply.elapsedTime / 1000);
    done();
  });

  const notFound = { statusCode: 404, error: "NOT_FOUND", message: "Recurso no encontrado" };
  // Metrics are read during an overload too: the overload guard lets this route through.
  app.get("/metrics", { config: { ...access("public").config, pressureHandler: () => undefined } }, async (request, reply) => {
    if (!mayReadMetrics(request, config)) return reply.status(404).send(notFound);
    reply.header("Cache-Control", "no-store").type(metrics.registry.contentType);
    return metrics.registry.metrics();
  });
}
