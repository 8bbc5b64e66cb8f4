import type { FastifyInstance } from "fastify";
import { POOL_CONNECTIONS } from "../db/database.ts";
import { sessionUserSelect } from "../http/authenticate.ts";
import { billListRows, billListTotal } from "../features/bills/bills-reads.repository.ts";

// A cold start that holds (issue 46 §4). A process that has just started has an empty connection pool, Prisma's query
// plans not yet compiled and no route's code optimised by V8: the first few hundred users would pay for all of it at
// once. Before /readyz says ready (main.ts holds it 503 meanwhile, so the proxy sends nothing), the process warms what
// every request of the hot paths needs, with no user's data: it opens the pool's connections, runs the queries every
// signed-in request makes (the user and session lookups) and the patients' bill list for no one, and sends itself the
// hot routes a few rounds (app.inject, no socket) with a correctly signed token of no account, which each route answers
// 401 after verifying the token and looking the account up.

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
