import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { payAtForm, testCards } from "../../tests/helpers/payments-fixtures.ts";
import { startStack, waitFor, type Stack } from "./harness.ts";
import { startLoad, summarize, type LoadRun } from "./users.ts";

// npm run test:faults (issue 24, part 2): each scenario starts its own stack (npm run stack: two instances, supervisor,
// proxy, mocks) on a PostgreSQL cluster and a Redis of its own, runs FAULT_USERS (100) virtual users, injects one fault
// for real and checks what users got and what the database holds afterwards. JSON to var/reports/faults-*.json; exit
// code 1 when a scenario fails. FAULT_SCENARIOS=kill,postgres,redis,lab,smtp,money picks scenarios; FAULT_SECONDS
// (40) is how long the load runs around the fault.

const USERS = Number(process.env.FAULT_USERS ?? 100);
const SECONDS = Number(process.env.FAULT_SECONDS ?? 40);
const chosen = (process.env.FAULT_SCENARIOS ?? "kill,postgres,redis,lab,smtp,money").split(",");

interface Result {
  scenario: string;
  passed: boolean;
  usersSaw: string;
  counts: Record<string, number | string>;
  checks: Array<{ what: string; ok: boolean; detail?: string }>;
}

async function query<T>(stack: Stack, sql: string, values: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/** Every user creation answered 2xx is in the database exactly once; the others are there at most once. */
async function checkWrites(stack: Stack, load: LoadRun) {
  const ruts = load.created.map((user) => user.rut.replace(/\./g, ""));
  const rows = ruts.length
    ? await query<{ rut: string; n: string }>(stack, `SELECT rut, count(*) AS n FROM "User" WHERE rut = ANY($1) GROUP BY rut`, [ruts])
    : [];
  const counted = new Map(rows.map((row) => [row.rut, Number(row.n)]));
  const answered2xx = load.created.filter((user) => user.status >= 200 && user.status < 300);
  const lost = answered2xx.filter((user) => counted.get(user.rut.replace(/\./g, "")) !== 1);
  const twice = [...counted.values()].filter((n) => n > 1).length;
  return { written: answered2xx.length, lost: lost.length, twice, attempted: load.created.length };
}

const check = (what: string, ok: boolean, detail?: string) => ({ what, ok, detail });
const readsOf = (load: LoadRun, from = 0, to = Number.POSITIVE_INFINITY) =>
  load.outcomes.filter((outcome) => outcome.kind === "read" && outcome.at >= from && outcome.at < to);
const unexpected = (status: number) =>
  status === 0 || status >= 500 || status === 400 || status === 401 || status === 403 || status === 404;

async function withStack(name: string, env: Record<string, string>, body: (stack: Stack) => Promise<Omit<Result, "scenario" | "passed">>) {
  console.log(`\n== ${name}`);
  const stack = await startStack(env);
  try {
    const result = await body(stack);
    return { scenario: name, passed: result.checks.every((c) => c.ok), ...result };
  } catch (error) {
    return { scenario: name, passed: false, usersSaw: `error del escenario: ${(error as Error).message}`, counts: {}, checks: [] };
  } finally {
    await stack.close();
  }
}

// 1. kill -9 of one portal instance.
async function killScenario(): Promise<Result> {
  return withStack("kill -9 de una instancia", {}, async (stack) => {
    const load = startLoad(stack.proxyUrl, USERS);
    await sleep((SECONDS / 3) * 1000);
    const port = stack.instancePorts[0];
    const pid = stack.pidOn(port);
    if (!pid) throw new Error("no instance pid");
    const killedAt = Date.now();
    process.kill(pid, "SIGKILL");
    const rejoined = await waitFor(async () => {
      const newPid = stack.pidOn(port);
      if (!newPid || newPid === pid) return false;
      return (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => null))?.status === 200;
    }, 30_000);
    const rejoinSeconds = (Date.now() - killedAt) / 1000;
    await sleep((SECONDS / 3) * 1000);
    await load.stop();
    const reads = readsOf(load);
    const failedReads = reads.filter((outcome) => unexpected(outcome.status));
    const writes = await checkWrites(stack, load);
    const writeErrors = load.created.filter((user) => user.status >= 500 || user.status === 0).length;
    const all = summarize(load.outcomes);
    return {
      usersSaw: `lecturas sin error; ${writeErrors} escrituras en curso con error (502 del proxy, que la pantalla muestra); instancia de vuelta en ${rejoinSeconds.toFixed(1)} s`,
      counts: {
        solicitudes: all.requests,
        "lecturas fallidas": failedReads.length,
        "escrituras 2xx": writes.written,
        perdidas: writes.lost,
        duplicadas: writes.twice,
        "reingreso s": rejoinSeconds.toFixed(1),
      },
      checks: [
        check(
          "ninguna lectura falló",
          failedReads.length === 0,
          failedReads
            .slice(0, 5)
            .map((o) => `${o.name} ${o.status} ${o.message ?? ""}`)
            .join(", "),
        ),
        check("toda escritura 2xx está una vez", writes.lost === 0 && writes.twice === 0),
        check("la instancia se reinicia y vuelve en ≤ 15 s", rejoined && rejoinSeconds <= 15, `${rejoinSeconds.toFixed(1)} s`),
      ],
    };
  });
}

// 2. PostgreSQL restarted (the run's own cluster: pg_ctl stop -m fast, 5 s down, start).
async function postgresScenario(): Promise<Result> {
  return withStack("PostgreSQL reiniciado", {}, async (stack) => {
    const pids = stack.instancePorts.map((port) => stack.pidOn(port));
    const load = startLoad(stack.proxyUrl, USERS);
    await sleep((SECONDS / 3) * 1000);
    const downAt = Date.now();
    stack.cluster.stop("fast");
    await sleep(1_000);
    const readyDuring = await fetch(`http://127.0.0.1:${stack.instancePorts[0]}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    await sleep(4_000);
    stack.cluster.start();
    const backAt = Date.now();
    // Recovered: the first moment from which every answer of the next 3 s is right.
    await sleep(12_000);
    await load.stop();
    const during = load.outcomes.filter((o) => o.at >= downAt && o.at < backAt);
    const badDuring = during.filter(
      (o) => o.status === 500 || (o.status >= 500 && !/no está disponible|sobrecargado/.test(o.message ?? "")),
    );
    const after = load.outcomes.filter((o) => o.at >= backAt).sort((x, y) => x.at - y.at);
    const lastFailure = after.filter((o) => unexpected(o.status)).at(-1);
    const recoverySeconds = lastFailure ? (lastFailure.at - backAt) / 1000 : 0;
    const samePids = stack.instancePorts.every((port, i) => stack.pidOn(port) === pids[i]);
    const writes = await checkWrites(stack, load);
    const all = summarize(load.outcomes);
    const spanish503 = during.filter((o) => o.status === 503).length;
    return {
      usersSaw: `${spanish503} respuestas 503 «El servicio no está disponible…» durante la caída, ninguna 500; recuperado ${recoverySeconds.toFixed(1)} s después del regreso, sin reiniciar procesos`,
      counts: {
        solicitudes: all.requests,
        "durante la caída": during.length,
        "503 en castellano": spanish503,
        "500 u otras": badDuring.length,
        "escrituras 2xx": writes.written,
        perdidas: writes.lost,
        duplicadas: writes.twice,
      },
      checks: [
        check("/readyz 503 mientras PostgreSQL no está", readyDuring === 503, String(readyDuring)),
        check(
          "nunca un 500 ni un error sin mensaje en castellano",
          badDuring.length === 0,
          badDuring
            .slice(0, 5)
            .map((o) => `${o.name} ${o.status} ${o.message}`)
            .join(", "),
        ),
        check("se recupera solo en ≤ 10 s", recoverySeconds <= 10, `${recoverySeconds.toFixed(1)} s`),
        check("sin reiniciar procesos", samePids),
        check("toda escritura 2xx está una vez", writes.lost === 0 && writes.twice === 0),
      ],
    };
  });
}

// 3. Redis down: logins keep working; counters shared again when it returns.
async function redisScenario(): Promise<Result> {
  return withStack("Redis caído", {}, async (stack) => {
    const load = startLoad(stack.proxyUrl, USERS);
    await sleep((SECONDS / 3) * 1000);
    const downAt = Date.now();
    await stack.redis.kill();
    await sleep((SECONDS / 3) * 1000);
    await stack.redis.start();
    const backAt = Date.now();
    await sleep(8_000);
    // A failed login now must land in Redis again (shared state is back).
    await fetch(`${stack.proxyUrl}/api/rcr/v1/auth/new-login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rut: "12.345.678-5", password: "Incorrecta1" }),
    });
    const keys = spawnSync("redis-cli", ["-p", String(stack.redis.port), "--scan", "--pattern", "*login:*"], { encoding: "utf8" }).stdout;
    await load.stop();
    const logins = load.outcomes.filter((o) => o.name.startsWith("ingreso") && o.at >= downAt && o.at < backAt);
    const failedLogins = logins.filter((o) => o.status !== 200);
    const failed = load.outcomes.filter((o) => unexpected(o.status));
    const all = summarize(load.outcomes);
    return {
      usersSaw: `${logins.length} ingresos durante la caída, ${failedLogins.length} fallidos; contadores compartidos de vuelta`,
      counts: {
        solicitudes: all.requests,
        "ingresos sin Redis": logins.length,
        "ingresos fallidos": failedLogins.length,
        "respuestas inesperadas": failed.length,
      },
      checks: [
        check(
          "los ingresos siguen funcionando sin Redis",
          logins.length > 0 && failedLogins.length === 0,
          failedLogins
            .slice(0, 3)
            .map((o) => `${o.status} ${o.message}`)
            .join(", "),
        ),
        check(
          "ninguna otra solicitud falló",
          failed.length === 0,
          failed
            .slice(0, 5)
            .map((o) => `${o.name} ${o.status} ${o.message ?? ""}`)
            .join(", "),
        ),
        check("los contadores vuelven a Redis", keys.includes("login:")),
      ],
    };
  });
}

// 4. Laboratory and imaging answering in 10 s, then down, then back.
async function labScenario(): Promise<Result> {
  // Without the 60 s copy of the providers' answers (issue 26), so every results page reaches the provider and the
  // scenario measures the timeouts and the circuit breaker, not the cache.
  return withStack("Laboratorio e imagenología lentos y luego caídos", { RESULTS_CACHE_SECONDS: "0" }, async (stack) => {
    const setMode = (modo: string) => fetch(`${stack.mocksUrl}/fallas/control?modo=${modo}&ms=10000`, { method: "PUT" });
    const providerRequests = async () =>
      ((await (await fetch(`${stack.mocksUrl}/fallas/control`)).json()) as { requests: number }).requests;
    const load = startLoad(stack.proxyUrl, USERS);
    await sleep((SECONDS / 4) * 1000);
    const slowAt = Date.now();
    await setMode("lenta");
    await sleep((SECONDS / 4) * 1000);
    const downAt = Date.now();
    await setMode("caida");
    const requestsAtDown = await providerRequests();
    await sleep((SECONDS / 4) * 1000);
    const providerCallsWhileDown = (await providerRequests()) - requestsAtDown;
    const backAt = Date.now();
    await setMode("normal");
    await sleep((SECONDS / 4) * 1000);
    await load.stop();
    const isResults = (name: string) => ["laboratorio", "orden de laboratorio", "imagenología"].includes(name);
    const resultsDuring = load.outcomes.filter((o) => isResults(o.name) && o.at >= slowAt && o.at < backAt);
    const slowest = Math.max(0, ...resultsDuring.map((o) => o.ms));
    const wrongMessage = resultsDuring.filter(
      (o) =>
        o.status !== 200 && !/El servicio de (laboratorio|imagenología) (no respondió a tiempo|no está disponible)/.test(o.message ?? ""),
    );
    const resultsWhileDown = load.outcomes.filter((o) => isResults(o.name) && o.at >= downAt && o.at < backAt).length;
    const others = (from: number, to: number) =>
      summarize(
        load.outcomes.filter((o) => !isResults(o.name)),
        from,
        to,
      );
    const before = others(0, slowAt);
    const during = others(slowAt, backAt);
    const othersFailed = load.outcomes.filter((o) => !isResults(o.name) && unexpected(o.status));
    const afterBack = load.outcomes.filter((o) => isResults(o.name) && o.at >= backAt + 12_000);
    return {
      usersSaw: `páginas de resultados en ≤ ${(slowest / 1000).toFixed(1)} s con el mensaje en castellano; demás páginas p95 ${before.p95ms} → ${during.p95ms} ms; ${providerCallsWhileDown} llamadas al proveedor caído para ${resultsWhileDown} páginas`,
      counts: {
        solicitudes: load.outcomes.length,
        "páginas de resultados durante la falla": resultsDuring.length,
        "más lenta ms": Math.round(slowest),
        "p95 otras antes ms": before.p95ms,
        "p95 otras durante ms": during.p95ms,
        "llamadas al proveedor caído": providerCallsWhileDown,
      },
      checks: [
        check("resultados responden en ≤ 3 s", slowest <= 3_000, `${Math.round(slowest)} ms`),
        check(
          "con el mensaje en castellano",
          wrongMessage.length === 0,
          wrongMessage
            .slice(0, 3)
            .map((o) => `${o.status} ${o.message}`)
            .join(", "),
        ),
        check(
          "las demás páginas no fallan",
          othersFailed.length === 0,
          othersFailed
            .slice(0, 3)
            .map((o) => `${o.name} ${o.status}`)
            .join(", "),
        ),
        check(
          "las demás páginas no se mueven (p95 ≤ 2× y ≤ +150 ms)",
          during.p95ms <= Math.max(2 * before.p95ms, before.p95ms + 150),
          `${before.p95ms} → ${during.p95ms}`,
        ),
        check(
          "el cortacircuitos deja de llamar al proveedor caído",
          providerCallsWhileDown < resultsWhileDown / 2,
          `${providerCallsWhileDown} llamadas / ${resultsWhileDown} páginas`,
        ),
        check(
          "vuelven los resultados cuando el proveedor vuelve",
          afterBack.length === 0 || afterBack.every((o) => o.status === 200),
          `${afterBack.filter((o) => o.status !== 200).length} fallidas`,
        ),
      ],
    };
  });
}

// 5. SMTP down while staff create users and patients ask for recovery.
async function smtpScenario(): Promise<Result> {
  return withStack("SMTP caído", {}, async (stack) => {
    const load = startLoad(stack.proxyUrl, USERS);
    await sleep((SECONDS / 4) * 1000);
    const downAt = Date.now();
    await stack.smtp.stop();
    await sleep((SECONDS / 2) * 1000);
    await load.stop();
    const createdWhileDown = load.created.filter((user) => user.status === 200).length;
    await stack.smtp.start();
    const all200 = load.created.filter((user) => user.status === 200);
    const delivered = await waitFor(() => all200.every((user) => stack.smtp.store.list({ to: user.email }).length > 0), 60_000, 500);
    await sleep(5_000); // retries keep running: nothing may arrive a second time
    const twice = all200.filter((user) => stack.smtp.store.list({ to: user.email }).length > 1).length;
    const missing = all200.filter((user) => stack.smtp.store.list({ to: user.email }).length === 0).length;
    const writes = await checkWrites(stack, load);
    const failedCreates = load.created.filter((user) => user.status !== 200).length;
    const writesDuring = load.outcomes.filter((o) => o.kind === "write" && o.at >= downAt);
    return {
      usersSaw: `${writesDuring.filter((o) => o.status === 200).length} altas respondidas 200 con SMTP caído; cada correo llegó una vez al volver SMTP`,
      counts: {
        "altas 2xx": writes.written,
        "altas con SMTP caído": createdWhileDown,
        "altas fallidas": failedCreates,
        "correos faltantes": missing,
        "correos dobles": twice,
        perdidas: writes.lost,
        duplicadas: writes.twice,
      },
      checks: [
        check("las altas responden 2xx con SMTP caído", failedCreates === 0 && createdWhileDown > 0),
        check("cada correo llega al volver SMTP", delivered && missing === 0, `${missing} faltantes`),
        check("ningún correo se envía dos veces", twice === 0),
        check("toda escritura 2xx está una vez", writes.lost === 0 && writes.twice === 0),
      ],
    };
  });
}

// 6. Money: the instance is killed after Webpay committed and before the bill was marked paid.
async function moneyScenario(): Promise<Result> {
  return withStack("Pago: portal muerto entre el commit de Webpay y la cuenta pagada", {}, async (stack) => {
    const load = startLoad(stack.proxyUrl, USERS);
    const api = (path: string) => `/api/rcr/v1${path}`;
    const [bill] = await query<{ id: number; accountCode: string }>(
      stack,
      `INSERT INTO "Bill" ("accountCode", "createAccountIdDate", amount, "userId", "clinicCode", "isPaid", "updatedAt")
       SELECT (800000000 + floor(random() * 1e8))::bigint::text, now(), 45990, id, 'hcs-rcr', false, now() FROM "User" WHERE rut = '12345678-5'
       RETURNING id, "accountCode"`,
    );
    const login = await fetch(`${stack.proxyUrl}${api("/auth/new-login")}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ rut: "12.345.678-5", password: "Paciente2026" }),
    });
    const token = ((await login.json()) as { payload: { accessToken: string } }).payload.accessToken;
    const auth = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const started = await fetch(`${stack.proxyUrl}${api("/payment/generate-transaction-new-prod")}`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ accountId: bill!.id, rcrLink: "http://clinicasur.localhost:4200", clinicCode: "hcs-rcr" }),
    });
    const { token: tbkToken } = ((await started.json()) as { payload: { token: string } }).payload;
    await payAtForm(stack.mocksUrl, tbkToken, testCards.visaApproved);
    // Webpay records the commit at once and holds its answer 4 s: the instance is killed in between.
    await fetch(`${stack.mocksUrl}/webpay/mock/fault?commitDelayMs=4000`, { method: "PUT" });
    const port = stack.instancePorts[0];
    const pid = stack.pidOn(port)!;
    const commitUrl = (base: string) => `${base}${api(`/payment/new-commit-prod?token_ws=${tbkToken}&accountId=${bill!.id}`)}`;
    const inFlight = fetch(commitUrl(`http://127.0.0.1:${port}`), { headers: auth }).then(
      (r) => r.status,
      () => 0,
    );
    const committed = await waitFor(
      async () => {
        const list = (await (await fetch(`${stack.mocksUrl}/webpay/mock/transactions`)).json()) as Array<{
          token: string;
          committed: boolean;
        }>;
        return list.find((t) => t.token === tbkToken)?.committed === true;
      },
      10_000,
      50,
    );
    process.kill(pid, "SIGKILL");
    const firstAnswer = await inFlight;
    await fetch(`${stack.mocksUrl}/webpay/mock/fault?commitDelayMs=0`, { method: "PUT" });
    const paidBeforeReturn = (await query<{ isPaid: boolean }>(stack, `SELECT "isPaid" FROM "Bill" WHERE id = $1`, [bill!.id]))[0]!.isPaid;
    // The patient opens the return address again, in two tabs at once, through the proxy.
    const settledAt = Date.now();
    const tabs = await Promise.all(
      [0, 1].map(() =>
        fetch(commitUrl(stack.proxyUrl), { headers: auth }).then(async (r) => ({
          status: r.status,
          body: (await r.json()) as { payload?: { approved?: boolean } },
        })),
      ),
    );
    const settleSeconds = (Date.now() - settledAt) / 1000;
    const again = await fetch(`${stack.proxyUrl}${api("/payment/generate-transaction-new-prod")}`, {
      method: "POST",
      headers: auth,
      body: JSON.stringify({ accountId: bill!.id }),
    });
    await sleep(5_000);
    await load.stop();
    const [row] = await query<{ isPaid: boolean }>(stack, `SELECT "isPaid" FROM "Bill" WHERE id = $1`, [bill!.id]);
    const transactions = await query<{ status: string }>(stack, `SELECT status FROM "PaymentTransaction" WHERE "billId" = $1`, [bill!.id]);
    const mock = (
      (await (await fetch(`${stack.mocksUrl}/webpay/mock/transactions`)).json()) as Array<{
        token: string;
        committed: boolean;
        calls: { commit: number };
      }>
    ).filter((t) => (transactions.length ? true : t.token === tbkToken));
    const authorized = transactions.filter((t) => t.status === "AUTHORIZED").length;
    const all = summarize(load.outcomes);
    const failedReads = readsOf(load).filter((o) => unexpected(o.status));
    return {
      usersSaw: `el pago en curso recibió ${firstAnswer || "conexión cortada"}; al volver (dos pestañas) ambas «Pago aceptado» en ${settleSeconds.toFixed(1)} s; un nuevo pago responde ${again.status}`,
      counts: {
        solicitudes: all.requests,
        "lecturas fallidas": failedReads.length,
        "transacciones autorizadas": authorized,
        "cargos en Webpay": mock.filter((t) => t.token === tbkToken && t.committed).length,
        commits: mock.find((t) => t.token === tbkToken)?.calls.commit ?? 0,
      },
      checks: [
        check("Webpay había confirmado antes de la muerte", committed),
        check("la cuenta no quedó pagada antes del retorno (la falla ocurrió)", !paidBeforeReturn),
        check(
          "ambas pestañas ven el pago aceptado",
          tabs.every((t) => t.status === 200 && t.body.payload?.approved === true),
          tabs.map((t) => t.status).join(", "),
        ),
        check("la cuenta queda pagada una vez", row!.isPaid && authorized === 1, `${authorized} autorizadas`),
        check("no se pide pagar de nuevo (409)", again.status === 409),
      ],
    };
  });
}

const scenarios: Record<string, () => Promise<Result>> = {
  kill: killScenario,
  postgres: postgresScenario,
  redis: redisScenario,
  lab: labScenario,
  smtp: smtpScenario,
  money: moneyScenario,
};

// The anonymous users open the login page: the stacks run with SKIP_WEB_BUILD, so build the web app once if missing.
if (!existsSync("dist/web/index.html")) {
  const build = spawnSync("npx", ["vite", "build", "--config", "web/vite.config.ts", "--logLevel", "warn"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const results: Result[] = [];
for (const name of chosen) {
  const scenario = scenarios[name];
  if (!scenario) throw new Error(`unknown scenario ${name}`);
  const result = await scenario();
  results.push(result);
  console.log(`${result.passed ? "PASA" : "FALLA"} ${result.scenario}: ${result.usersSaw}`);
  for (const c of result.checks) console.log(`  ${c.ok ? "✓" : "✗"} ${c.what}${c.detail ? ` (${c.detail})` : ""}`);
  console.log(`  ${JSON.stringify(result.counts)}`);
}
mkdirSync("var/reports", { recursive: true });
const file = `var/reports/faults-${new Date().toISOString().replace(/[:.]/g, "-")}.json`;
writeFileSync(file, JSON.stringify({ users: USERS, seconds: SECONDS, results }, null, 2));
console.log(`\n${results.filter((r) => r.passed).length} passed, ${results.filter((r) => !r.passed).length} failed (${file})`);
process.exit(results.every((r) => r.passed) ? 0 : 1);
