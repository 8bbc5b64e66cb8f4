import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import autocannon from "autocannon";
import pg from "pg";
import { createDataset } from "../../bench/support/datasets.ts";
import { multipartBody } from "../../server/lib/multipart-body.ts";
import { continueOnImageNode } from "../image-node.mjs";
import { startStack, type Stack } from "../faults/harness.ts";
import { patientAccounts } from "../faults/users.ts";
import { signIn } from "../support/sign-in.ts";
import { addBuckets, histogramBuckets, loopBuckets, histogramP99Between, requestBuckets, rssSlopes } from "./measures.ts";

// npm run test:load (issue 24, part 1): the npm run stack topology (two instances, supervisor, proxy, Redis, mocks) on
// a PostgreSQL cluster of the run's own filled with the bench's 100k data set, loaded with autocannon (a maintained
// npm load tool) in the issue's mix: 70 % patients, 20 % staff (of which one in ten writes: a bill with a 1 MB PDF, or
// an edit of a user), 10 % anonymous. Patients read their bills, open a bill's attachments and download one PDF
// (list, signed link, the PDF), the laboratory list and an order, imaging and 'Mi cuenta'. Tokens come from one login per account before the run.
//
// Think time. autocannon's least pause between two requests of a connection is 1 s (connectionRate: 1), and every
// connection's one-second tick starts when the run does: left so, all virtual users ask at the same instant, once a
// second, and the latency measured is the time to drain that herd, not what a patient sees. So each group's
// connections are started in 20 phases spread over the first second, and a user who thinks LOAD_THINK_SECONDS on
// average (3 s, the middle of the issue's 1–5 s) is a connection's third: N users are N / 3 connections at one request
// a second each, the same arrivals per second as N users asking every 1–5 s.
//
//   LOAD_USERS (400)         virtual users of the budget run
//   LOAD_SECONDS (300)       its length
//   LOAD_THINK_SECONDS (3)   a user's mean pause between requests (1: a connection per user, three times the load)
//   LOAD_STEPS ("")          e.g. "50,100,200,400": shorter runs (LOAD_STEP_SECONDS, 60) stepping the users up, to find
//                            the most users within budget on this machine; the budget run follows unless LOAD_USERS=0
//   LOAD_PG_STATEMENTS ("")  1: PostgreSQL's time per statement (pg_stat_statements), printed after each run
//
// --cold (issue 46 §4): a stack that has just started. After the sign-ins and the run's preparation, the same load runs
// LOAD_COLD_PRIME_SECONDS (20; not judged), then both instances are killed (-9); the supervisor starts new processes
// (empty caches, a fresh JIT), and the LOAD_USERS users (400) start the moment both answer /readyz — which each says
// only once it has warmed up (server/ops/warm-up.ts) — for LOAD_SECONDS (60 by default here), judged on the same
// budget (p99 of reads ≤ 400 ms, 0 failed). The load before the restart is what makes the run measure the portal's
// start and not this process's: without it the first 10 s also paid for this load generator's own first autocannon
// run (its JIT, its 133 connections), for the stand-in proxy's and the mock providers' (Caddy and the clinics'
// providers are already running when a portal instance restarts) and for PostgreSQL's cold buffers. Measured on one
// machine (2-12-2026, docs/rendimiento.md): the users' p99 of the first 10 s on replicas primed with real requests was
// 0.9–1.0 s without it, 0.3–0.6 s with it.

// On the production image's Node release when it is installed (scripts/image-node.mjs).
await continueOnImageNode();

const COLD = process.argv.includes("--cold");
const USERS = Number(process.env.LOAD_USERS ?? 400);
const SECONDS = Number(process.env.LOAD_SECONDS ?? (COLD ? 60 : 300));
const THINK_SECONDS = Number(process.env.LOAD_THINK_SECONDS ?? 3);
const STEPS = (process.env.LOAD_STEPS ?? "").split(",").filter(Boolean).map(Number);
const STEP_SECONDS = Number(process.env.LOAD_STEP_SECONDS ?? 60);
const PRIME_SECONDS = Number(process.env.LOAD_COLD_PRIME_SECONDS ?? 20);
const PHASES = 20;
const PG_STATEMENTS = process.env.LOAD_PG_STATEMENTS === "1";

const budget = { readP95: 150, readP99: 400, writeP99: 1000, rssSlopeMbPerMin: 1, eventLoopP99: 50 };

interface GroupResult {
  group: string;
  users: number;
  connections: number;
  requests: number;
  failed: number;
  p95: number;
  p99: number;
  /**
   * p99 of the answers received in each 10-s window from the group's start (informative): whether a run's tail comes
   * from its first seconds (a cold start) or spreads over it.
   */
  p99ByWindow: number[];
  statuses: Record<string, number>;
}

const WINDOW_MS = 10_000;

const api = (path: string) => `/api/rcr/v1${path}`;

function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

type Request = autocannon.Request;

/**
 * One group of virtual users: `users` users thinking THINK_SECONDS on average are `users / THINK_SECONDS` autocannon
 * connections at one request a second, repeating `requests`, started in PHASES phases over the first second.
 */
async function runGroup(baseUrl: string, group: string, users: number, seconds: number, requests: Request[]): Promise<GroupResult> {
  const connections = Math.max(1, Math.round(users / THINK_SECONDS));
  const latencies: number[] = [];
  const byWindow: number[][] = [];
  const startedAt = Date.now();
  const statuses: Record<string, number> = {};
  const phases = Math.min(PHASES, connections);
  const results = await Promise.all(
    Array.from({ length: phases }, async (_, phase) => {
      const share = Math.floor(connections / phases) + (phase < connections % phases ? 1 : 0);
      await sleep((phase * 1000) / phases);
      return new Promise<autocannon.Result>((resolve, reject) => {
        const instance = autocannon(
          { url: baseUrl, connections: share, duration: seconds, connectionRate: 1, timeout: 10, requests },
          (error, result) => (error ? reject(error) : resolve(result)),
        );
        instance.on("response", (_client: unknown, statusCode: number, _bytes: number, responseTime: number) => {
          latencies.push(responseTime);
          (byWindow[Math.floor((Date.now() - startedAt) / WINDOW_MS)] ??= []).push(responseTime);
          statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
        });
      });
    }),
  );
  const unexpected = Object.entries(statuses)
    .filter(([status]) => Number(status) >= 400)
    .reduce((sum, [, n]) => sum + n, 0);
  const errors = results.reduce((sum, result) => sum + result.errors, 0);
  const timeouts = results.reduce((sum, result) => sum + result.timeouts, 0);
  return {
    group,
    users,
    connections,
    requests: latencies.length,
    // autocannon counts a timeout among its errors too
    failed: unexpected + errors,
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    p99ByWindow: Array.from(byWindow, (window) => Math.round(percentile(window ?? [], 99))),
    statuses: { ...statuses, errors, timeouts },
  };
}

/**
 * /metrics of each instance every 5 s: resident memory and prom-client's event-loop p99 of those 5 s; and the
 * portal's event-loop delay histogram at the start and the end, for the p99 of the whole run.
 */
function sampleMetrics(stack: Stack) {
  const samples: Array<{ at: number; port: number; rssMb: number; loopP99Ms: number }> = [];
  const firstBuckets = new Map<number, Map<number, number>>();
  const lastBuckets = new Map<number, Map<number, number>>();
  // Both instances' request-duration histograms per route at each reading (every 5 s from the run's start).
  const requestReadings: Array<Map<string, Map<number, number>>> = [];
  // Queries waiting for one of the pool's connections at each reading, both instances added up (a point in time, not a
  // total): whether a slow window was a queue for the database's connections.
  const poolWaiting: number[] = [];
  // How long the audit rows waited for their commit (every audited answer waits for its row), both instances added up.
  const auditReadings: Array<Map<number, number>> = [];
  const read = async () => {
    const requests = new Map<string, Map<number, number>>();
    let waiting = 0;
    let auditRows = new Map<number, number>();
    for (const port of stack.instancePorts) {
      const text = await fetch(`http://127.0.0.1:${port}/metrics`).then(
        (r) => r.text(),
        () => "",
      );
      const value = (name: string) => Number(new RegExp(`^${name}(?:\\{[^}]*\\})? (\\S+)$`, "m").exec(text)?.[1] ?? NaN);
      samples.push({
        at: Date.now(),
        port,
        rssMb: value("process_resident_memory_bytes") / 1024 / 1024,
        loopP99Ms: value("nodejs_eventloop_lag_p99_seconds") * 1000,
      });
      for (const [route, buckets] of requestBuckets(text)) requests.set(route, addBuckets(requests.get(route) ?? new Map(), buckets));
      waiting += Number(/^portal_db_pool_connections\{state="waiting"\} (\S+)$/m.exec(text)?.[1] ?? 0);
      auditRows = addBuckets(auditRows, histogramBuckets(text, "portal_audit_row_wait_seconds"));
      const buckets = loopBuckets(text);
      if (buckets.size === 0) continue;
      if (!firstBuckets.has(port)) firstBuckets.set(port, buckets);
      lastBuckets.set(port, buckets);
    }
    requestReadings.push(requests);
    poolWaiting.push(waiting);
    auditReadings.push(auditRows);
  };
  // prom-client's event-loop histogram covers the time since the previous scrape: one scrape now starts it afresh
  // (the first would otherwise include start-up and the data set's preparation).
  const started = read().then(() => void samples.splice(0));
  const timer = setInterval(() => void started.then(read), 5_000);
  return {
    samples,
    /**
     * The instances' own p99 (from their request-duration histogram, linear within its bucket) in each 10-s window of
     * the run: beside the users' p99 per window, whether a window's tail was spent in the instances or before them.
     */
    instanceP99ByWindow: () => {
      const all = requestReadings.map((reading) => [...reading.values()].reduce(addBuckets, new Map<number, number>()));
      return all
        .filter((_, index) => index % 2 === 0)
        .slice(1)
        .map((reading, window) => Math.round(histogramP99Between(all[window * 2]!, reading, 250).p99Ms));
    },
    /** Queries waiting for a pool connection at each 5-s reading from the run's start (0 s, 5 s, …; both instances). */
    poolWaiting: () => [...poolWaiting],
    /**
     * The audit rows written in each 10-s window, the p99 of their wait from the request to the commit, and how many
     * waited over 250 ms: whether a slow window's answers were waiting for their audit row's commit (issue 46, §4).
     */
    auditByWindow: () =>
      auditReadings
        .filter((_, index) => index % 2 === 0)
        .slice(1)
        .map((reading, window) => {
          const between = histogramP99Between(auditReadings[window * 2]!, reading, 250);
          return { rows: between.ticks, p99Ms: Math.round(between.p99Ms), over250: Math.round(between.lateShare * between.ticks) };
        }),
    /** The routes with the most answers over 250 ms inside the instances in the run's 10-s window `window`, and how many. */
    slowestRoutes: (window: number) => {
      const [start, end] = [requestReadings[window * 2], requestReadings[window * 2 + 2]];
      if (!start || !end) return [];
      return [...end]
        .map(([route, buckets]) => {
          const before = start.get(route);
          const over = (at: Map<number, number> | undefined) => (at?.get(Infinity) ?? 0) - (at?.get(0.25) ?? 0);
          const all = (buckets.get(Infinity) ?? 0) - (before?.get(Infinity) ?? 0);
          return { route, slow: over(buckets) - over(before), all };
        })
        .filter((row) => row.slow > 0)
        .sort((a, b) => b.slow - a.slow)
        .slice(0, 8);
    },
    async stop() {
      clearInterval(timer);
      await started.then(read);
      return Object.fromEntries(
        [...lastBuckets].map(([port, last]) => [`:${port}`, histogramP99Between(firstBuckets.get(port)!, last, budget.eventLoopP99)]),
      );
    },
  };
}

/**
 * PostgreSQL's own time per statement over one run (pg_stat_statements, LOAD_PG_STATEMENTS=1): where the database's
 * share of a request goes, since the whole stack shares this machine's cores.
 */
async function statementTimes(databaseUrl: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
  await client.query("SELECT pg_stat_statements_reset()");
  await client.end();
  return async (requests: number) => {
    const reader = new pg.Client({ connectionString: databaseUrl });
    await reader.connect();
    const { rows } = await reader.query<{ calls: string; total_ms: number; mean_ms: number; rows: string; query: string }>(
      `SELECT calls, total_exec_time AS total_ms, mean_exec_time AS mean_ms, rows, query
         FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 20`,
    );
    await reader.end();
    const total = rows.reduce((sum, row) => sum + row.total_ms, 0);
    console.log(
      `   PostgreSQL: ${Math.round(total)} ms en las 20 sentencias más costosas (${(total / Math.max(1, requests)).toFixed(2)} ms por solicitud)`,
    );
    for (const row of rows)
      console.log(
        `     ${Math.round(row.total_ms)} ms · ${row.calls} llamadas · ${row.mean_ms.toFixed(2)} ms c/u · ${row.rows} filas · ${row.query.replace(/\s+/g, " ").slice(0, 160)}`,
      );
    return rows.map((row) => ({ ...row, query: row.query.replace(/\s+/g, " ") }));
  };
}

function onePdf(): Buffer {
  // A 1 MB PDF (the portal checks the %PDF- signature and the 2 MB limit).
  return Buffer.concat([Buffer.from("%PDF-1.4\n%"), randomBytes(1024 * 1024 - 32).map((b) => 32 + (b % 90)), Buffer.from("\n%%EOF\n")]);
}

function multipart(fields: Record<string, string>, pdf: Buffer) {
  const { payload, headers } = multipartBody(fields, [{ name: "detalle.pdf", content: pdf }]);
  return { body: payload, contentType: headers["content-type"]! };
}

/**
 * Every account signs in once per run, before the first step, and keeps its token through the steps: the staff's
 * second-factor code is accepted once per 30-second step, and a login is set-up, not what is measured.
 */
async function signInOnce(base: string) {
  const patientTokens = await Promise.all(
    patientAccounts.map(async (account) => ({ rut: account.rut, token: await signIn(base, account, "patient") })),
  );
  const adminToken = await signIn(base, { rut: "11.111.111-1", password: "Admin2026" }, "staff");
  return { patientTokens, adminToken };
}

/**
 * What the users' requests need from the portal before a run: patients to edit, and a PDF of each patient's bills.
 * Asked before a cold run's restart, so that the run is the first traffic the new processes see.
 */
async function prepareRun(stack: Stack, tokens: Awaited<ReturnType<typeof signInOnce>>) {
  const base = stack.proxyUrl;
  const { patientTokens, adminToken } = tokens;
  // Patients of the data set for staff to edit (a new phone number each time).
  const found = (await fetch(`${base}${api("/admin/filter/users?clinic=hcs-rcr&param=1700&roleType=2")}`, {
    headers: { authorization: `Bearer ${adminToken}` },
  }).then((response) => response.json())) as { usersList?: Array<{ id: number }> };
  const editableIds = (found.usersList ?? []).map((user) => user.id);
  if (editableIds.length === 0) throw new Error("load: no patient of the data set to edit");
  // One PDF of each account's bills, for the attachments steps.
  const attachments = new Map<string, { billId: number; path: string }>();
  for (const { rut, token } of patientTokens) {
    const headers = { authorization: `Bearer ${token}` };
    const page = (await fetch(`${base}${api(`/files/accounts/${rut}?page=1&limit=10&clinic=hcs-rcr`)}`, { headers }).then((r) =>
      r.json(),
    )) as { accounts?: Array<{ id: number; filesCount: number }> };
    const bill = page.accounts?.find((account) => account.filesCount > 0);
    if (!bill) continue;
    const list = (await fetch(`${base}${api(`/files/list/${bill.id}`)}`, { headers }).then((r) => r.json())) as {
      getFileList?: Array<{ path: string }>;
    };
    const path = list.getFileList?.[0]?.path;
    if (path) attachments.set(rut, { billId: bill.id, path });
  }
  const withAttachments = patientTokens.filter((account) => attachments.has(account.rut));
  if (withAttachments.length === 0) throw new Error("load: no patient account has a bill with a PDF");
  return { editableIds, attachments, withAttachments };
}

async function runLoad(
  stack: Stack,
  users: number,
  seconds: number,
  tokens: Awaited<ReturnType<typeof signInOnce>>,
  prepared: Awaited<ReturnType<typeof prepareRun>>,
) {
  const base = stack.proxyUrl;
  const { adminToken } = tokens;
  const { editableIds, attachments, withAttachments } = prepared;
  const asset = readdirSync("dist/web/assets").find((name) => name.endsWith(".js"));
  const pdf = onePdf();
  let nextAccount = 700_000_000 + Math.floor(Math.random() * 1_000_000) * 10;
  const staffRead = (path: string): Request => ({ method: "GET", path: api(path), headers: { authorization: `Bearer ${adminToken}` } });
  const patientRequest = (path: (rut: string) => string): Request => ({
    method: "GET",
    setupRequest(request, context: object) {
      const vu = context as { account?: { rut: string; token: string } };
      vu.account ??= withAttachments[Math.floor(Math.random() * withAttachments.length)]!;
      const account = vu.account;
      return { ...request, path: api(path(account.rut)), headers: { authorization: `Bearer ${account.token}` } };
    },
  });
  const attachmentOf = (rut: string) => attachments.get(rut)!;
  const orderOf = (rut: string) => `${rut.replace(/\./g, "").split("-")[0]}01`;

  const patients = Math.max(1, Math.round(users * 0.7));
  const staff = Math.max(1, Math.round(users * 0.2));
  const writers = Math.max(1, Math.round(staff / 10));
  const anonymous = Math.max(1, users - patients - staff);
  const metrics = sampleMetrics(stack);
  // This process's own event-loop delay in each 10-s window: a late tick here is time added to every latency it takes.
  const generatorLoop = monitorEventLoopDelay({ resolution: 10 });
  generatorLoop.enable();
  const generatorLoopP99ByWindow: number[] = [];
  const generatorTimer = setInterval(() => {
    generatorLoopP99ByWindow.push(Math.round(generatorLoop.percentile(99) / 1e6));
    generatorLoop.reset();
  }, WINDOW_MS);
  const statements = PG_STATEMENTS ? await statementTimes(stack.databaseUrl) : null;
  const groups = await Promise.all([
    runGroup(base, "pacientes (lecturas)", patients, seconds, [
      patientRequest((rut) => `/files/accounts/${rut}?page=1&limit=10&clinic=hcs-rcr`),
      // 'Adjuntos' of a bill: its list, the signed link of one PDF, and the PDF through that link.
      patientRequest((rut) => `/files/list/${attachmentOf(rut).billId}`),
      {
        ...patientRequest((rut) => `/files/${encodeURIComponent(attachmentOf(rut).path)}`),
        onResponse(status, body, context: object) {
          const vu = context as { link?: string };
          vu.link = undefined;
          if (status !== 200) return;
          const url = (JSON.parse(body) as { url?: string }).url;
          if (!url) return;
          const { pathname, search } = new URL(url, base);
          vu.link = pathname + search;
        },
      },
      {
        method: "GET",
        setupRequest(request, context: object) {
          const vu = context as { link?: string; account: { token: string } };
          // A link that did not come is already counted as that request's failure; the user goes on to 'Mi cuenta'.
          if (!vu.link) return { ...request, path: api("/auth/me"), headers: { authorization: `Bearer ${vu.account.token}` } };
          return { ...request, path: vu.link, headers: {} };
        },
      },
      patientRequest(() => "/orders?clinic=hcs-rcr"),
      patientRequest((rut) => `/orders/${orderOf(rut)}?clinic=hcs-rcr`),
      patientRequest(() => "/orders-imaging?clinic=hcs-rcr"),
      patientRequest(() => "/auth/me"),
    ]),
    runGroup(base, "personal (lecturas)", staff - writers, seconds, [
      staffRead("/admin/filter/users?clinic=hcs-rcr&param=1700"),
      staffRead("/admin/filter/users?clinic=hcs-rcr&param=gonz"),
      staffRead("/files/filter/users?clinic=hcs-rcr&param=9000"),
    ]),
    runGroup(base, "personal (escrituras: cuenta con PDF de 1 MB, edición de un usuario)", writers, seconds, [
      {
        method: "POST",
        path: api("/files/create-account"),
        setupRequest(request) {
          nextAccount += 1;
          const { body, contentType } = multipart(
            {
              rut: "12.345.678-5",
              accountCode: String(nextAccount),
              createAccountIdDate: "2026-02-14",
              amount: "125000",
              isPaid: "false",
              clinicCode: "hcs-rcr",
            },
            pdf,
          );
          return { ...request, body, headers: { authorization: `Bearer ${adminToken}`, "content-type": contentType } };
        },
      },
      {
        method: "PATCH",
        setupRequest(request) {
          const id = editableIds[Math.floor(Math.random() * editableIds.length)]!;
          const phoneNumber = `+5697${String(Math.floor(Math.random() * 10_000_000)).padStart(7, "0")}`;
          return {
            ...request,
            path: api(`/admin/${id}`),
            body: JSON.stringify({ phoneNumber }),
            headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
          };
        },
      },
    ]),
    runGroup(base, "anónimos", anonymous, seconds, [
      { method: "GET", path: "/login" },
      { method: "GET", path: asset ? `/assets/${asset}` : "/favicon.svg" },
      {
        method: "POST",
        path: api("/auth/request-reset-password-rut"),
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ rut: "99.999.999-9", rcrLink: "http://clinicasur.localhost:4200/recover-password" }),
      },
    ]),
  ]);
  clearInterval(generatorTimer);
  generatorLoop.disable();
  const loop = await metrics.stop();
  const pgStatements = await statements?.(groups.reduce((sum, g) => sum + g.requests, 0));
  const reads = groups.filter((g) => !g.group.includes("escrituras"));
  const writes = groups.filter((g) => g.group.includes("escrituras"));
  const readP95 = Math.max(...reads.map((g) => g.p95));
  const readP99 = Math.max(...reads.map((g) => g.p99));
  const writeP99 = Math.max(...writes.map((g) => g.p99));
  const failed = groups.reduce((sum, g) => sum + g.failed, 0);
  const slopes = rssSlopes(metrics.samples, Math.min(3, seconds / 60 / 2));
  const worstWindowLoopP99 = Math.max(0, ...metrics.samples.map((s) => s.loopP99Ms).filter(Number.isFinite));
  const checks = [
    { what: "0 solicitudes fallidas (5xx, tiempo agotado o 4xx inesperado)", ok: failed === 0, value: failed },
    { what: `lecturas p95 ≤ ${budget.readP95} ms`, ok: readP95 <= budget.readP95, value: readP95 },
    { what: `lecturas p99 ≤ ${budget.readP99} ms`, ok: readP99 <= budget.readP99, value: readP99 },
    { what: `escrituras p99 ≤ ${budget.writeP99} ms`, ok: writeP99 <= budget.writeP99, value: writeP99 },
    {
      // The issue's "flat over the last 3 minutes" needs a run of 5: a step of 60 s shows the slope of its warm-up
      // (±100 MB/min either way), so a step reports it without being judged on it.
      what:
        seconds >= 300
          ? `RSS plano en los últimos 3 min (pendiente < ${budget.rssSlopeMbPerMin} MB/min)`
          : "RSS (no se juzga en una corrida de menos de 5 min)",
      ok: seconds < 300 || Object.values(slopes).every((s) => s < budget.rssSlopeMbPerMin),
      value: Object.entries(slopes)
        .map(([port, s]) => `${port} ${s.toFixed(2)}`)
        .join(", "),
    },
    {
      // portal_event_loop_delay_seconds over the whole run, per instance: p99 ≤ 50 ms is at most 1 % of ticks later.
      what: `retardo del bucle p99 ≤ ${budget.eventLoopP99} ms (toda la corrida, cada instancia)`,
      ok: Object.keys(loop).length === stack.instancePorts.length && Object.values(loop).every((l) => l.lateShare <= 0.01),
      value: Object.entries(loop)
        .map(
          ([port, l]) =>
            `${port} ${l.p99Ms.toFixed(1)} ms (${(l.lateShare * 100).toFixed(2)} % de ${l.ticks} tics > ${budget.eventLoopP99} ms)`,
        )
        .join(", "),
    },
  ];
  // Not judged: prom-client's p99 of each 5-s window counts its 20 ms tick too; its worst window is shown for reference.
  return {
    users,
    seconds,
    groups,
    checks,
    passed: checks.every((c) => c.ok),
    loop,
    worstWindowLoopP99,
    instanceP99ByWindow: metrics.instanceP99ByWindow(),
    poolWaiting: metrics.poolWaiting(),
    auditByWindow: metrics.auditByWindow(),
    slowestRoutesByWindow: Array.from({ length: Math.ceil(seconds / 10) }, (_, window) => metrics.slowestRoutes(window)),
    generatorLoopP99ByWindow,
    samples: metrics.samples,
    pgStatements,
  };
}

/** Kills both instances (-9) and waits until the supervisor's new processes answer /readyz; returns how long it took. */
async function restartInstances(stack: Stack): Promise<number> {
  const started = Date.now();
  const old = stack.instancePorts.map((port) => stack.pidOn(port));
  for (const pid of old) if (pid) process.kill(pid, "SIGKILL");
  for (const [index, port] of stack.instancePorts.entries()) {
    for (;;) {
      const pid = stack.pidOn(port);
      const ready =
        pid !== null &&
        pid !== old[index] &&
        (await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
          (response) => response.ok,
          () => false,
        ));
      if (ready) break;
      if (Date.now() - started > 120_000) throw new Error(`load: --cold: la instancia :${port} no volvió en 2 min`);
      await sleep(50);
    }
  }
  return Date.now() - started;
}

// ---- main ----
if (!existsSync("dist/web/index.html")) {
  const build = spawnSync("npx", ["vite", "build", "--config", "web/vite.config.ts", "--logLevel", "warn"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
console.log("load: preparando el conjunto 100k y la pila…");
const stack = await startStack(
  {},
  {
    postgresSettings: PG_STATEMENTS ? { shared_preload_libraries: "pg_stat_statements" } : {},
    prepare: async (cluster) => {
      process.env.BENCH_DATABASE_URL = cluster.url();
      const dataset = await createDataset("100k", (line) => console.log(`load: ${line}`));
      await dataset.fresh.db.close();
      return dataset.url;
    },
  },
);
const runs: Array<Awaited<ReturnType<typeof runLoad>>> = [];

/** A run's verdict, each group's figures (with its p99 per 10-s window) and each check, on the console. */
function printRun(run: Awaited<ReturnType<typeof runLoad>>): void {
  console.log(`load: ${run.users} usuarios ${run.seconds} s → ${run.passed ? "cumple" : "no cumple"}`);
  for (const g of run.groups)
    console.log(
      `   ${g.group}: ${g.users} usuarios (${g.connections} conexiones), ${g.requests} solicitudes, p95 ${g.p95} ms, p99 ${g.p99} ms, ${g.failed} fallidas ${JSON.stringify(g.statuses)}\n` +
        `     p99 por ventana de 10 s (ms): ${g.p99ByWindow.join(" · ")}`,
    );
  for (const c of run.checks) console.log(`   ${c.ok ? "✓" : "✗"} ${c.what}: ${c.value}`);
  console.log(`   (peor ventana de 5 s de nodejs_eventloop_lag_p99, con su tic de 20 ms: ${Math.round(run.worstWindowLoopP99)} ms)`);
  console.log(`   p99 dentro de las instancias por ventana de 10 s (ms): ${run.instanceP99ByWindow.join(" · ")}`);
  console.log(`   consultas esperando una conexión del pool, en cada lectura de 5 s (las dos instancias): ${run.poolWaiting.join(" · ")}`);
  console.log(
    `   filas de auditoría por ventana de 10 s (filas, p99 de su espera hasta el commit, cuántas > 250 ms): ${run.auditByWindow.map((w) => `${w.rows} / ${w.p99Ms} ms / ${w.over250}`).join(" · ")}`,
  );
  console.log("   rutas con más respuestas > 250 ms dentro de las instancias, por ventana de 10 s:");
  for (const [window, routes] of run.slowestRoutesByWindow.entries())
    console.log(
      `     ${window * 10}–${window * 10 + 10} s: ${routes.map((r) => `${r.route} ${r.slow} de ${r.all}`).join(" · ") || "ninguna"}`,
    );
  console.log(`   retardo p99 del bucle del generador de carga por ventana de 10 s (ms): ${run.generatorLoopP99ByWindow.join(" · ")}`);
}
let exitCode = 0;
try {
  const tokens = await signInOnce(stack.proxyUrl);
  const prepared = await prepareRun(stack, tokens);
  if (COLD && PRIME_SECONDS > 0) {
    const prime = await runLoad(stack, USERS, PRIME_SECONDS, tokens, prepared);
    console.log(`load: --cold: carga previa de ${PRIME_SECONDS} s, antes de reiniciar las instancias (no se juzga):`);
    printRun(prime);
  }
  if (COLD) {
    const back = await restartInstances(stack);
    console.log(`load: --cold: ambas instancias reiniciadas (kill -9) y listas en ${(back / 1000).toFixed(1)} s; la carga empieza ya`);
  }
  for (const users of COLD ? [] : STEPS) {
    const run = await runLoad(stack, users, STEP_SECONDS, tokens, prepared);
    runs.push(run);
    printRun(run);
  }
  if (USERS > 0) {
    const run = await runLoad(stack, USERS, SECONDS, tokens, prepared);
    runs.push(run);
    printRun(run);
    if (!run.passed) exitCode = 1;
  }
} finally {
  await stack.close();
}
const highest = Math.max(0, ...runs.filter((r) => r.passed).map((r) => r.users));
console.log(`load: más usuarios dentro del presupuesto en esta máquina: ${highest || "ninguno de los probados"}`);
mkdirSync("var/reports", { recursive: true });
const file = `var/reports/load-${new Date().toISOString().replace(/[:.]/g, "-")}.json`;
writeFileSync(file, JSON.stringify({ budget, thinkSeconds: THINK_SECONDS, highestWithinBudget: highest, runs }, null, 2));
console.log(`load: ${file}`);
process.exit(exitCode);
