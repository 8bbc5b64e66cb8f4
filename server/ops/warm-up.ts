import { randomBytes, randomInt } from "node:crypto";
import http from "node:http";
import type { FastifyInstance, InjectOptions } from "fastify";
import type pg from "pg";
import { rutCheckDigit } from "../contract/rut.ts";
import { Role } from "../contract/roles.ts";
import { POOL_CONNECTIONS } from "../db/database.ts";
import { openRollbackOnlyTransaction, type RollbackOnlyTransaction } from "../db/rollback-only.ts";
import { announceRowChange } from "../db/row-changes.ts";
import { createUser } from "../db/users.repository.ts";
import { sessionUserSelect } from "../http/authenticate.ts";
import { billListRows, billListTotal } from "../features/bills/bills-reads.repository.ts";
import { multipartBody } from "../lib/multipart-body.ts";
import { turnOffAllNotices } from "../lib/notice-preferences.ts";
import { startSession } from "../lib/sessions.ts";
import type { AppDeps } from "../deps.ts";

// A cold start that holds (issue 46 §4). A process that has just started has an empty connection pool, Prisma's query
// plans not yet compiled and no route's code optimised by V8: the first few hundred users would pay for all of it at
// once. Before /readyz says ready (main.ts holds it 503 meanwhile, so the proxy sends nothing), the process warms what
// every request of the hot paths needs, with no user's data: it opens the pool's connections, runs the queries every
// signed-in request makes (the user and session lookups) and the patients' bill list for no one, and sends itself the
// hot routes a few rounds (app.inject, no socket) with a correctly signed token of no account, which each route answers
// 401 after verifying the token and looking the account up. Then, on PostgreSQL, the same routes with a 200, inside a
// transaction that is rolled back (the real-route rounds, below).

/** Paths of the hot reads (the load's mix): 'Mis cuentas', attachments, laboratory, imaging, 'Mi cuenta', staff search. */
const HOT_PATHS = [
  "/api/rcr/v1/files/accounts/11.111.111-1?page=1&limit=10&clinic=hcs-rcr",
  "/api/rcr/v1/files/list/1",
  "/api/rcr/v1/orders?clinic=hcs-rcr",
  "/api/rcr/v1/orders-imaging?clinic=hcs-rcr",
  "/api/rcr/v1/auth/me",
  "/api/rcr/v1/admin/filter/users?clinic=hcs-rcr&param=1700",
  "/api/rcr/v1/files/filter/users?clinic=hcs-rcr&param=9000",
  "/api/rcr/v1/health",
  "/readyz",
];

export interface WarmUpOptions {
  /** Connections to open at once (the pool's size, which it keeps open). */
  connections?: number;
  rounds?: number;
}

/** Warms the process; returns how long it took (ms). Failures are not fatal: a cold route is slow, not wrong. */
export async function warmUp(app: FastifyInstance, { connections = POOL_CONNECTIONS, rounds = 20 }: WarmUpOptions = {}): Promise<number> {
  const started = performance.now();
  const { deps } = app;
  // Overlapping queries make the pool open that many connections (each one a PostgreSQL backend to start).
  await Promise.all(Array.from({ length: connections }, () => deps.sql("SELECT pg_sleep(0.02)")));
  // Each of the pool's connections is a PostgreSQL backend of its own, with its own catalog and plan caches: the
  // queries of every signed-in request run on all of them at once, not on one (a cold start's first 10 s had a p99 of
  // 1.06 s, the rest 64–166 ms, 1-12-2026).
  const filter = { clinics: undefined, userId: -1, param: undefined, orderBy: "createAccountIdDate", direction: "DESC" } as const;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (let round = 0; round < 3; round++) {
        await deps.prisma.user.findUnique({ where: { id: -1 }, select: sessionUserSelect });
        await deps.prisma.session.findMany({ where: { userId: -1, endedAt: null, expiresAt: { gt: new Date() } }, select: { id: true } });
        await billListRows(deps, { ...filter, skip: 0, take: 10 });
        await billListTotal(deps, filter);
      }
    }),
  );
  const authorization = `Bearer ${deps.tokens.sign({ userId: -1, tokenVersion: 0, sessionId: "calentamiento" })}`;
  for (let round = 0; round < rounds; round++)
    await Promise.all(HOT_PATHS.map((url) => app.inject({ method: "GET", url, headers: { authorization, host: "localhost" } })));
  return performance.now() - started;
}

// The real routes, with a 200 and no one's data (issue 46 §4). The 401 rounds above leave cold what a route does after
// the access check (a cold start's first 10 s had the restarted instances' own p99 at 0.9–1.9 s, on the bill page,
// the attachments, the signed link and its download, and the staff searches; 137–290 ms once those had run with a
// 200, 2-12-2026). So, while no user's request is served yet (the gate below holds them), the process opens a
// transaction that is rolled back at the end (db/rollback-only.ts) and sends itself, inside it, the hot routes of a
// patient, a staff member and an anonymous visitor, as they are: a warm-up patient with a bill and its PDF, created
// in that transaction, whom no one else ever sees. What the transaction cannot undo, and why it does not matter: the
// id sequences advance (ids of users, sessions, bills and audit rows skip a few numbers), the request counters of
// /metrics count these requests, and the caches of this process, which are emptied at the end. The laboratory and
// imaging providers are not called (a provider would be asked about a RUT that is no one's): their routes stay warm
// with the 401 rounds only. Background jobs start after it (app.ts, holdBackgroundJobs), so none runs in there.

/** The header that lets the warm-up's own requests through the gate; its value is a secret of this process. */
const WARM_UP_HEADER = "x-portal-calentamiento";
/** What the gate lets through while warming: the probes and the metrics, which read and write nothing of anyone's. */
const PROBES = new Set(["/healthz", "/readyz", "/metrics"]);

export interface RealRoutesReport {
  rounds: number;
  /** Answers by status (e.g. { "200": 1180 }): a route that did not answer 2xx warmed only part of its code. */
  statuses: Record<string, number>;
  /** Requests per route that did not answer 2xx, "METHOD path": count. */
  refusedRoutes: Record<string, number>;
  /** Statements the rolled-back transaction ran, and those it refused (a COMMIT inside, or after it ended). */
  statements: { sent: number; refused: number };
}

export interface WarmUpReport {
  ms: number;
  /** null on the embedded database (one connection, a developer's machine) or when the real-route rounds failed. */
  realRoutes: RealRoutesReport | null;
  /** Why the real-route rounds did not run, or stopped. */
  skipped?: string;
}

export interface PreparedWarmUp {
  /** True until run() has finished: /readyz answers 503 meanwhile. */
  pending(): boolean;
  run(options?: WarmUpOptions & { realRounds?: number; realBudgetMs?: number }): Promise<WarmUpReport>;
}

/** The gate of the real-route rounds, registered on every app (buildApp): closed only while their transaction is open. */
export interface WarmUpGate {
  /** The value of the warm-up's header that lets its own requests through: a secret of this process. */
  readonly secret: string;
  closedUntil: Promise<void> | null;
  /** The app is closing (SIGTERM during the warm-up): the rounds stop at the next request. */
  closing: boolean;
  /** The app's own PostgreSQL pool, whose queries the rounds route into their transaction; none on PGlite. */
  readonly pool: pg.Pool | undefined;
}

/**
 * Registers the gate (buildApp, before the server listens). While the real-route rounds run, any request but the
 * warm-up's own and the probes waits for them to end: none may run while the pool's queries go into the transaction
 * that is rolled back, and none is refused for it.
 */
export function registerWarmUpGate(app: FastifyInstance, pool: pg.Pool | undefined): void {
  const gate: WarmUpGate = { secret: randomBytes(24).toString("base64url"), closedUntil: null, closing: false, pool };
  app.decorate("warmUpGate", gate);
  // preClose runs before Fastify waits for the requests in flight, which include those held at the gate.
  app.addHook("preClose", (done) => {
    gate.closing = true;
    done();
  });
  app.addHook("onRequest", (request, _reply, done) => {
    if (!gate.closedUntil || request.headers[WARM_UP_HEADER] === gate.secret || PROBES.has(request.url.split("?")[0]!)) return done();
    void gate.closedUntil.then(() => done());
  });
}

/** The warm-up to run once the database is migrated. */
export function prepareWarmUp(app: FastifyInstance): PreparedWarmUp {
  const gate = app.warmUpGate;
  const { pool } = gate;
  let pending = true;
  return {
    pending: () => pending,
    async run(options = {}) {
      const started = performance.now();
      try {
        await warmUp(app, options);
        if (!pool) return { ms: performance.now() - started, realRoutes: null, skipped: "base de datos embebida" };
        let open!: () => void;
        gate.closedUntil = new Promise<void>((resolve) => (open = resolve));
        try {
          const realRoutes = await warmUpRealRoutes(app, pool, gate.secret, options.realRounds ?? 60, options.realBudgetMs ?? 12_000);
          return { ms: performance.now() - started, realRoutes };
        } catch (error) {
          app.log.warn({ err: error }, "warm-up: the real-route rounds stopped (rolled back)");
          return { ms: performance.now() - started, realRoutes: null, skipped: (error as Error).message };
        } finally {
          gate.closedUntil = null;
          open();
        }
      } finally {
        pending = false;
      }
    },
  };
}

declare module "fastify" {
  interface FastifyInstance {
    warmUpGate: WarmUpGate;
  }
}

/** Runs the real-route rounds inside a transaction that is rolled back; the pool is the process's own. */
export async function warmUpRealRoutes(
  app: FastifyInstance,
  pool: pg.Pool,
  secret: string,
  rounds: number,
  budgetMs: number,
): Promise<RealRoutesReport> {
  const transaction = await openRollbackOnlyTransaction(pool);
  let closeSelf = () => {};
  const report: RealRoutesReport = { rounds: 0, statuses: {}, refusedRoutes: {}, statements: transaction.counts };
  try {
    const cast = await warmUpCast(app, secret);
    const requests = realRouteRequests(cast);
    const deadline = performance.now() + budgetMs;
    const self = selfRequests(app);
    closeSelf = self.close;
    const goOn = () => performance.now() < deadline && !app.warmUpGate.closing;
    for (let round = 0; round < rounds && goOn(); round++) {
      for (const request of requests) {
        if (!goOn()) break;
        const status = await sendUndone(app, self.send, transaction, request(), secret).catch((error: unknown) => {
          if (app.warmUpGate.closing) return null; // the app closed under the request: stop, as at the next one
          throw error;
        });
        if (status === null) break;
        report.statuses[status] = (report.statuses[status] ?? 0) + 1;
        if (status >= 300) {
          const { method, url } = request();
          const route = `${method} ${String(url).split("?")[0]}`;
          report.refusedRoutes[route] = (report.refusedRoutes[route] ?? 0) + 1;
        }
      }
      report.rounds++;
    }
    return report;
  } finally {
    closeSelf();
    try {
      await transaction.end();
    } finally {
      // What this process cached from inside the transaction (the warm-up's users, sessions, totals) is forgotten.
      announceRowChange(null, null);
    }
  }
}

interface WarmUpCast {
  clinic: string;
  patient: { id: number; rut: string; authorization: string };
  staffAuthorization: string;
  bill: { id: number; filePath: string };
  /** A RUT of no one, for the anonymous password-reset request. */
  absentRut: string;
}

/** A RUT no user has (checked inside the transaction), in the range of no real person's (above 90 million). */
async function unusedRut(deps: AppDeps): Promise<string> {
  for (;;) {
    const body = String(randomInt(90_000_000, 99_000_000));
    const rut = `${body}-${rutCheckDigit(body)}`;
    if (!(await deps.prisma.user.findUnique({ where: { rut }, select: { id: true } }))) return rut;
  }
}

/** The warm-up's patient, staff member and bill, created inside the transaction (the outer level, kept for the rounds). */
async function warmUpCast(app: FastifyInstance, secret: string): Promise<WarmUpCast> {
  const { deps } = app;
  const clinic = (await deps.prisma.clinic.findFirst({ orderBy: { code: "asc" }, select: { codeClinicStr: true } }))?.codeClinicStr;
  if (!clinic) throw new Error("no hay clínicas");
  const meta = { ip: "127.0.0.1", userAgent: "calentamiento" };
  const state = { hasChangedPassword: true, dateTyc: new Date() };
  const person = { email: "calentamiento@portal.invalid", firstName: "Calentamiento", lastName: "Portal", passwordHash: "!", state };
  const patientRut = await unusedRut(deps);
  const patient = await createUser(
    deps.prisma,
    { ...person, rut: patientRut, roleType: Role.patient, patientClinics: [clinic] },
    { id: true },
  );
  const staff = await createUser(deps.prisma, { ...person, rut: await unusedRut(deps), roleType: Role.admin }, { id: true });
  // No notice mail for its bills: none could be queued (the job engine starts after the warm-up) and none should be.
  await turnOffAllNotices(deps.prisma, patient.id);
  // Staff reach the staff routes only with a second factor set up; this one never signs in, so it needs no secret.
  await deps.prisma.user.update({ where: { id: staff.id }, data: { totpEnabledAt: new Date() } });
  const bearer = async (userId: number) =>
    `Bearer ${deps.tokens.sign({ userId, tokenVersion: 0, sessionId: await startSession(deps, userId, meta) })}`;
  const cast = {
    clinic,
    patient: { id: patient.id, rut: patientRut, authorization: await bearer(patient.id) },
    staffAuthorization: await bearer(staff.id),
    absentRut: await unusedRut(deps),
  };
  const billRequest = newBillRequest(cast, String(randomInt(100_000_000, 999_999_999)));
  const created = await app.inject({ ...billRequest, headers: { ...billRequest.headers, [WARM_UP_HEADER]: secret } });
  const id = (created.json() as { accountId?: number }).accountId;
  if (created.statusCode !== 200 || !id) throw new Error(`la cuenta de calentamiento no se creó (${created.statusCode})`);
  const files = await app.inject({
    method: "GET",
    url: `/api/rcr/v1/files/list/${id}`,
    headers: { authorization: cast.patient.authorization, [WARM_UP_HEADER]: secret, host: "localhost" },
  });
  const filePath = (files.json() as { getFileList?: Array<{ path: string }> }).getFileList?.[0]?.path;
  if (!filePath) throw new Error(`el PDF de calentamiento no aparece (${files.statusCode})`);
  return { ...cast, bill: { id, filePath } };
}

/** A small PDF: the portal checks the %PDF- signature and the size. */
const WARM_UP_PDF = Buffer.concat([Buffer.from("%PDF-1.4\n%calentamiento\n"), Buffer.alloc(16 * 1024, 0x20), Buffer.from("\n%%EOF\n")]);

/** A staff member's new bill with its PDF; the sender adds the warm-up's header. */
function newBillRequest(cast: Pick<WarmUpCast, "clinic" | "patient" | "staffAuthorization">, accountCode: string): InjectOptions {
  const fields = {
    rut: cast.patient.rut,
    accountCode,
    createAccountIdDate: "2026-01-05",
    amount: "1000",
    isPaid: "false",
    clinicCode: cast.clinic,
  };
  const { payload, headers } = multipartBody(fields, [{ name: "calentamiento.pdf", content: WARM_UP_PDF }]);
  return {
    method: "POST",
    url: "/api/rcr/v1/files/create-account",
    payload,
    headers: {
      authorization: cast.staffAuthorization,
      ...headers,
      host: "localhost",
    },
  };
}

/**
 * The load's mix (scripts/load/run.ts) without the providers, and the web app's tRPC reads of the same screens: each
 * a function, since some take a fresh body.
 */
function realRouteRequests(cast: WarmUpCast): Array<() => InjectOptions> {
  const api = (path: string) => `/api/rcr/v1${path}`;
  const asPatient = (url: string) => () => ({
    method: "GET" as const,
    url: api(url),
    headers: { authorization: cast.patient.authorization },
  });
  const asStaff = (url: string) => () => ({ method: "GET" as const, url: api(url), headers: { authorization: cast.staffAuthorization } });
  const trpc = (procedure: string, input?: object) => () => ({
    method: "GET" as const,
    url: `/trpc/${procedure}${input ? `?input=${encodeURIComponent(JSON.stringify(input))}` : ""}`,
    headers: { authorization: cast.patient.authorization },
  });
  const { clinic } = cast;
  const digits = cast.patient.rut.split("-")[0];
  return [
    asPatient(`/files/accounts/${cast.patient.rut}?page=1&limit=10&clinic=${clinic}`),
    asPatient(`/files/list/${cast.bill.id}`),
    asPatient(`/files/${encodeURIComponent(cast.bill.filePath)}`),
    asPatient("/auth/me"),
    // The web app's own calls for the same screens go over tRPC (its handler and input parsing are code of their own).
    trpc("bills.pending"),
    trpc("bills.mine", { page: 1, limit: 10 }),
    trpc("bills.files", { id: cast.bill.id }),
    trpc("auth.validateToken"),
    // The staff searches look for the warm-up's own patient (by RUT digits and by name), so that they read no one
    // else's row.
    asStaff(`/admin/filter/users?clinic=${clinic}&param=${digits}`),
    asStaff(`/admin/filter/users?clinic=${clinic}&param=calentamiento`),
    asStaff(`/files/filter/users?clinic=${clinic}&param=${digits}`),
    () => ({
      method: "PATCH",
      url: api(`/admin/${cast.patient.id}`),
      payload: { phoneNumber: `+5697${String(randomInt(0, 10_000_000)).padStart(7, "0")}` },
      headers: { authorization: cast.staffAuthorization },
    }),
    () => newBillRequest(cast, String(randomInt(100_000_000, 999_999_999))),
    () => ({ method: "GET", url: "/login" }),
    () => ({
      method: "POST",
      url: api("/auth/request-reset-password-rut"),
      payload: { rut: cast.absentRut, rcrLink: "http://localhost/recover-password" },
    }),
  ];
}

/** A request and its answer, over the process's own socket when it listens (app.inject otherwise: tests). */
type SelfRequest = (request: InjectOptions) => Promise<{ statusCode: number; body: string }>;

/**
 * The warm-up's requests go through the process's own HTTP server when it is listening (it is, in main.ts): the
 * server's request parsing and response writing are code every user's request runs too, and app.inject skips them.
 */
function selfRequests(app: FastifyInstance): { send: SelfRequest; close(): void } {
  const address = app.server.listening ? app.server.address() : null;
  if (!address || typeof address === "string")
    return { send: async (request) => app.inject(request).then(({ statusCode, body }) => ({ statusCode, body })), close: () => {} };
  const host = address.address === "0.0.0.0" ? "127.0.0.1" : address.address === "::" ? "::1" : address.address;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send: SelfRequest = (request) =>
    new Promise((resolve, reject) => {
      const json = request.payload !== undefined && !Buffer.isBuffer(request.payload) && typeof request.payload !== "string";
      const body = json ? JSON.stringify(request.payload) : (request.payload as Buffer | string | undefined);
      const headers = { ...(request.headers as http.OutgoingHttpHeaders), ...(json ? { "content-type": "application/json" } : {}) };
      const outgoing = http.request(
        { host, port: address.port, method: request.method ?? "GET", path: String(request.url), headers, agent },
        (answer) => {
          const chunks: Buffer[] = [];
          answer.on("data", (chunk: Buffer) => chunks.push(chunk));
          answer.on("end", () => resolve({ statusCode: answer.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
          answer.on("error", reject);
        },
      );
      outgoing.on("error", reject);
      outgoing.end(body);
    });
  return { send, close: () => agent.destroy() };
}

/**
 * Sends one request inside a savepoint that is rolled back after it (and after the background work it started), so
 * no request sees another's writes and a failed one does not leave the transaction failed. The signed link a
 * patient's link request answers is followed in the same savepoint, as a patient's browser would.
 */
async function sendUndone(
  app: FastifyInstance,
  send: SelfRequest,
  transaction: RollbackOnlyTransaction,
  request: InjectOptions,
  secret: string,
): Promise<number> {
  return transaction.undoing(async () => {
    const headers = { host: "localhost", ...request.headers, [WARM_UP_HEADER]: secret };
    const answer = await send({ ...request, headers });
    const link =
      answer.statusCode === 200 && /^\/api\/rcr\/v1\/files\/[^/]+$/.test(String(request.url))
        ? (JSON.parse(answer.body) as { url?: string }).url
        : undefined;
    let status = answer.statusCode;
    if (link) {
      const { pathname, search } = new URL(link, "http://localhost");
      status = (await send({ method: "GET", url: pathname + search, headers: { host: "localhost", [WARM_UP_HEADER]: secret } })).statusCode;
    }
    await app.deps.background.settled();
    return status;
  });
}
