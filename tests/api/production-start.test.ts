import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildServer } from "../../scripts/build-server.mjs";
import { REMINDER_QUEUE_NAME } from "../../server/features/appointments/reminder-jobs.ts";
import { NOTICE_QUEUE_NAME } from "../../server/features/notices/notice-jobs.ts";
import { PAYMENT_SWEEP_QUEUE_NAME } from "../../server/features/payments/payment-sweep.ts";
import { MAIL_QUEUE_NAME } from "../../server/providers/mail/mail-queue.ts";
import { emptyDatabase, type EmptyDatabase } from "../helpers/fresh-database.ts";
import { freePort } from "../helpers/ports.ts";
import { READY_WITHIN_MS } from "../helpers/processes.ts";

// Issue 34: how the production image starts (dist/server/main.js with plain node, laid out as in the image), where a
// clinic gets hurt: production on the simulators, and a replica that meets a database not yet migrated.

const repo = path.resolve(import.meta.dirname, "../..");
const appDir = mkdtempSync(path.join(tmpdir(), "pp-prodstart-"));
// PostgreSQL, as compose runs it (an embedded PGlite folder is migrated when it is opened, so it is never "unmigrated").
const serverUrl = process.env.TEST_DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
let database: EmptyDatabase | undefined;
const children: ChildProcess[] = [];

/** A clinic's production settings: every provider real (none is called here), a real-looking Webpay merchant. */
const realProviders = {
  SMTP_HOST: "smtp.clinicamaitenes.cl",
  SMTP_PORT: "587",
  WEBPAY_BASE_URL: "https://webpay3g.transbank.cl",
  WEBPAY_COMMERCE_CODE: "597012345678",
  WEBPAY_API_KEY: randomBytes(32).toString("hex"),
  LAB_FHIR_BASE_URL: "https://lis.clinicamaitenes.cl/fhir",
  SCHEDULING_FHIR_BASE_URL: "https://agenda.clinicamaitenes.cl/fhir",
  IMAGING_DICOMWEB_BASE_URL: "https://pacs.clinicamaitenes.cl/dicom-web",
  IMAGING_VIEWER_URL_TEMPLATE: "https://pacs.clinicamaitenes.cl/viewer?StudyInstanceUIDs={studyUid}",
  IMAGING_LOGIN_URL: "https://pacs.clinicamaitenes.cl/login",
  SCHEDULING_URL_TEMPLATE: "https://agenda.{alias}.cl/?c={centerId}",
  LAB_SITE_URL_TEMPLATE: "https://resultados.{alias}.cl/",
  CLINIC_PORTAL_URL_TEMPLATE: "https://mi.{alias}.cl",
};
let env: NodeJS.ProcessEnv;

function run(file: string, extraEnv: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(process.execPath, [file], { cwd: appDir, env: { ...env, ...extraEnv }, encoding: "utf8" });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function start(extraEnv: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ["dist/server/main.js"], {
    cwd: appDir,
    env: { ...env, ...extraEnv },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function statusOf(url: string): Promise<number> {
  return fetch(url).then(
    (response) => response.status,
    () => 0,
  );
}

async function until(what: string, check: () => Promise<boolean>, ms = READY_WITHIN_MS) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${what}: no ocurrió en ${ms} ms`);
}

beforeAll(async () => {
  await buildServer(path.join(appDir, "dist"));
  symlinkSync(path.join(repo, "node_modules"), path.join(appDir, "node_modules"), "dir");
  symlinkSync(path.join(repo, "prisma"), path.join(appDir, "prisma"), "dir");
  env = { PATH: process.env.PATH, NODE_ENV: "production", JWT_SECRET: randomBytes(32).toString("base64"), LOG_LEVEL: "warn" };
  database = await emptyDatabase(serverUrl, "pp_test_prodstart");
  env.DATABASE_URL = database.url;
});

afterAll(async () => {
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGTERM");
        }),
    ),
  );
  await database?.drop();
  rmSync(appDir, { recursive: true, force: true });
});

describe("production start of the image's server (dist/server/main.js)", () => {
  it("refuses production on the simulators' defaults, exit code 78, naming every variable", () => {
    const refused = run("dist/server/main.js");
    expect(refused.status).toBe(78);
    for (const variable of [
      "SMTP_HOST",
      "WEBPAY_BASE_URL",
      "WEBPAY_COMMERCE_CODE",
      "WEBPAY_API_KEY",
      "LAB_FHIR_BASE_URL",
      "SCHEDULING_FHIR_BASE_URL",
      "IMAGING_DICOMWEB_BASE_URL",
      "IMAGING_LOGIN_URL",
      "SCHEDULING_URL_TEMPLATE",
    ]) {
      expect(refused.output).toContain(variable);
    }
    expect(refused.output).toContain("PORTAL_DEMO=true");
  }, 60_000);

  it("refuses one forgotten variable among real ones: the compose mocks service, a /fallas/ path, the integration code", () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ SMTP_HOST: "mocks", SMTP_PORT: "2525" }, "SMTP_HOST apunta al receptor de correo de los simuladores"],
      [{ LAB_FHIR_BASE_URL: "http://mocks:4300/fhir" }, "LAB_FHIR_BASE_URL apunta al servicio de simuladores"],
      [
        { IMAGING_DICOMWEB_BASE_URL: "https://pacs.clinica.cl/fallas/caida/dicom-web" },
        "IMAGING_DICOMWEB_BASE_URL apunta a una ruta de fallas",
      ],
      [{ WEBPAY_COMMERCE_CODE: "597055555532" }, "WEBPAY_COMMERCE_CODE es el código de comercio de integración"],
      [{ WEBPAY_FORM_ORIGIN: "http://localhost:4300" }, "WEBPAY_FORM_ORIGIN apunta a los simuladores"],
    ];
    for (const [setting, message] of cases) {
      const refused = run("dist/server/main.js", { ...realProviders, ...setting });
      expect(refused.status, JSON.stringify(setting)).toBe(78);
      expect(refused.output).toContain(message);
      expect(refused.output.match(/^ {2}- /gm), refused.output).toHaveLength(1);
    }
  }, 60_000);

  it("with every provider real, waits alive on an unmigrated database (/readyz 503) and becomes ready once it is migrated, without a restart", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const portal = start({ ...realProviders, HOST: "127.0.0.1", PORT: String(port), MIGRATE_ON_START: "false" });
    await until("/healthz 200", async () => (await statusOf(`${base}/healthz`)) === 200);
    const unready = await fetch(`${base}/readyz`);
    expect(unready.status).toBe(503);
    expect(((await unready.json()) as { checks: { migrations: string } }).checks.migrations).not.toBe("ok");
    // Still alive a few seconds later (it used to crash at once: relation "public.Clinic" does not exist).
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(portal.child.exitCode, portal.output()).toBeNull();
    expect(await statusOf(`${base}/readyz`)).toBe(503);

    const migrated = run("dist/cli/migrate.js", { ...realProviders });
    expect(migrated.status, migrated.output).toBe(0);
    await until("/readyz 200", async () => (await statusOf(`${base}/readyz`)) === 200);
    // Ready only once start-up finished by itself (the clinics' rows), in the same process, and its job engine started
    // (pg-boss's schema and every queue made): that start is paid before the first users, not in their first seconds.
    const clinics = new pg.Client({ connectionString: database!.url });
    await clinics.connect();
    try {
      const { rows } = await clinics.query<{ count: string }>(`SELECT count(*) FROM "Clinic"`);
      expect(Number(rows[0]!.count)).toBeGreaterThan(0);
      const queues = await clinics.query<{ name: string }>(`SELECT name FROM pgboss.queue ORDER BY name`);
      expect(queues.rows.map((row) => row.name).filter((name) => !name.startsWith("__pgboss"))).toEqual(
        [MAIL_QUEUE_NAME, NOTICE_QUEUE_NAME, PAYMENT_SWEEP_QUEUE_NAME, REMINDER_QUEUE_NAME].sort(),
      );
    } finally {
      await clinics.end();
    }
    await until("start-up logged", async () => portal.output().includes("queda listo para recibir tráfico"));
    expect(portal.child.exitCode).toBeNull();
    expect(portal.output()).toContain("/readyz responde 503 hasta que lo esté");
  }, 90_000);

  it("a demonstration (PORTAL_DEMO=true) starts on the simulators' defaults", async () => {
    const port = await freePort();
    const demo = start({ HOST: "127.0.0.1", PORT: String(port), PORTAL_DEMO: "true", MIGRATE_ON_START: "false" });
    await until("/healthz 200", async () => (await statusOf(`http://127.0.0.1:${port}/healthz`)) === 200);
    expect(demo.child.exitCode).toBeNull();
  }, 60_000);
});
