import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createWriteStream, mkdirSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { startTestCluster, type TestCluster } from "../../tests/helpers/pg-cluster.ts";
import { freePort, listening } from "../../tests/helpers/ports.ts";
import { startMailCatcher, type MailCatcher } from "../../mocks/mail/mail-catcher.ts";
import { MailStore } from "../../mocks/mail/mail-store.ts";

// The pieces every fault run needs, all of this run's own and all on loopback: a PostgreSQL cluster (initdb/pg_ctl on
// a free port, so the machine's shared server is never restarted), a redis-server, an SMTP catcher this process can
// stop and start, and `npm run stack` (two portal instances, their supervisor, the proxy, the mocks) on free ports.

export interface Stack {
  proxyUrl: string;
  instancePorts: [number, number];
  mocksUrl: string;
  cluster: TestCluster;
  databaseUrl: string;
  redis: { port: number; kill(): Promise<void>; start(): Promise<void> };
  smtp: { port: number; store: MailStore; stop(): Promise<void>; start(): Promise<void> };
  /** pid of the process listening on a loopback port. */
  pidOn(port: number): number | null;
  output(): string;
  close(): Promise<void>;
}

export function pidOnPort(port: number): number | null {
  const result = spawnSync("ss", ["-ltnpH", `sport = :${port}`], { encoding: "utf8" });
  const match = /pid=(\d+)/.exec(result.stdout);
  return match ? Number(match[1]) : null;
}

export async function waitFor(check: () => Promise<boolean> | boolean, timeoutMs: number, stepMs = 200): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(stepMs);
  }
  return false;
}

async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
    stdio: "ignore",
  });
  await waitFor(() => listening(port), 10_000, 50);
  return child;
}

export interface StackOptions {
  /** Fills a database on the run's cluster before the stack starts and returns its URL (the load's 100k data set). */
  prepare?: (cluster: TestCluster) => Promise<string>;
  /** PostgreSQL settings of the run's cluster (`-c name=value`), e.g. the load's pg_stat_statements. */
  postgresSettings?: Record<string, string>;
}

export async function startStack(extraEnv: Record<string, string> = {}, options: StackOptions = {}): Promise<Stack> {
  const cluster = await startTestCluster(options.postgresSettings);
  const databaseUrl = options.prepare ? await options.prepare(cluster) : cluster.url("portal_faults");
  const [proxyPort, a, b, mocksPort, mocksSmtpPort, smtpPort, redisPort] = await Promise.all(Array.from({ length: 7 }, () => freePort()));
  let redisChild = await startRedis(redisPort!);
  const store = new MailStore();
  let catcher: MailCatcher | null = await startMailCatcher({ host: "127.0.0.1", port: smtpPort, store });

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    STACK_PORT: String(proxyPort),
    STACK_PORTAL_PORTS: `${a},${b}`,
    MOCKS_HTTP_PORT: String(mocksPort),
    MOCKS_SMTP_PORT: String(mocksSmtpPort),
    SMTP_PORT: String(smtpPort),
    SKIP_WEB_BUILD: "true",
    NODE_ENV: "development",
    LOG_LEVEL: "warn",
    MAIL_RETRY_SECONDS: "2",
    PAYMENT_SWEEP_SECONDS: "5",
    LAB_FHIR_BASE_URL: `http://127.0.0.1:${mocksPort}/fallas/control/fhir`,
    IMAGING_DICOMWEB_BASE_URL: `http://127.0.0.1:${mocksPort}/fallas/control/dicom-web`,
    WEBPAY_BASE_URL: `http://127.0.0.1:${mocksPort}/webpay`,
    // A load run logs in far more than a person: the limits are per (RUT, address) and every VU comes from 127.0.0.1.
    LOGIN_MAX_FAILURES_PER_IP: "100000",
    ...extraEnv,
  };
  let output = "";
  const child = spawn(process.execPath, ["scripts/stack.mjs"], { env, stdio: ["ignore", "pipe", "pipe"] });
  const log = process.env.STACK_LOG_FILE ? createWriteStream(process.env.STACK_LOG_FILE) : null;
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  if (log) child.stdout!.pipe(log);
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const proxyUrl = `http://127.0.0.1:${proxyPort}`;
  const up = await waitFor(() => output.includes("listo en"), 240_000, 500);
  if (!up) {
    child.kill("SIGTERM");
    throw new Error(`the stack did not start:\n${output}`);
  }
  return {
    proxyUrl,
    instancePorts: [a!, b!],
    mocksUrl: `http://127.0.0.1:${mocksPort}`,
    cluster,
    databaseUrl,
    redis: {
      port: redisPort!,
      async kill() {
        const exited = new Promise((resolve) => redisChild.once("exit", resolve));
        redisChild.kill("SIGKILL");
        await exited;
      },
      async start() {
        redisChild = await startRedis(redisPort!);
      },
    },
    smtp: {
      port: smtpPort!,
      store,
      async stop() {
        await catcher?.close();
        catcher = null;
      },
      async start() {
        catcher = await startMailCatcher({ host: "127.0.0.1", port: smtpPort, store });
      },
    },
    pidOn: pidOnPort,
    output: () => output,
    async close() {
      // What the stack and its instances printed (restarts, errors), for reading after the run.
      mkdirSync("var/reports", { recursive: true });
      writeFileSync(`var/reports/stack-${proxyPort}.log`, output);
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await Promise.race([exited, sleep(20_000)]);
      if (child.exitCode === null) child.kill("SIGKILL");
      for (const port of [a!, b!, mocksPort!]) {
        const pid = pidOnPort(port);
        if (pid) process.kill(pid, "SIGKILL");
      }
      if (redisChild.exitCode === null) redisChild.kill("SIGKILL");
      await catcher?.close();
      cluster.destroy();
    },
  };
}
