// npm run stack: the topology of docker-compose.yml without Docker, on this machine's PostgreSQL and Redis — migrations
// once, demo data (development), the mock providers, two portal processes and a round-robin proxy in front. Every
// process runs the compiled bundles the image runs (npm run build:server, dist/), not the TypeScript sources: the load,
// fault and soak runs measure what a clinic deploys (tsx's loader adds work per closure and its own compiled code).
//
//   DATABASE_URL   PostgreSQL (default postgresql://postgres@127.0.0.1:5432/portal_pacientes; created if missing)
//   REDIS_URL      shared login throttling (default redis://127.0.0.1:6379)
//   STACK_PORT     the proxy, i.e. the portal's address (default 4200); the instances listen on the next two ports
//                  unless STACK_PORTAL_PORTS="a,b" says otherwise
//   STACK_SEED     "false" skips the demo data (it is never loaded with NODE_ENV=production)
//   MOCKS_HTTP_PORT / MOCKS_SMTP_PORT, SKIP_WEB_BUILD=true, and any portal setting (passed to both instances)
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, mkdirSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { portalNodeArgs, portalProcessEnv } from "./portal-process.mjs";
import { portalEnv } from "./start-env.mjs";
import { buildServer } from "./build-server.mjs";
import { startProxy } from "./stack-proxy.mjs";
import { createSupervisor, portsInUse, scriptArgs } from "./supervisor.mjs";
import { loadEnvFile } from "../server/lib/env-file.mjs";
loadEnvFile();

const env = process.env;
const log = (line) => console.log(`stack: ${line}`);
const databaseUrl = env.DATABASE_URL ?? "postgresql://postgres@127.0.0.1:5432/portal_pacientes";
const redisUrl = env.REDIS_URL ?? "redis://127.0.0.1:6379";
const proxyPort = Number(env.STACK_PORT ?? 4200);
const portalPorts = (env.STACK_PORTAL_PORTS ?? `${proxyPort + 1},${proxyPort + 2}`).split(",").map(Number);
const mocksPort = env.MOCKS_HTTP_PORT ?? "4300";
const smtpPort = env.MOCKS_SMTP_PORT ?? "2525";
const node = process.execPath;

const taken = await portsInUse({
  "el proxy": proxyPort,
  ...Object.fromEntries(portalPorts.map((port, index) => [`la instancia ${index + 1}`, port])),
  "los proveedores simulados": mocksPort,
  "el correo simulado (SMTP)": smtpPort,
});
if (taken.length) {
  console.error(
    `stack: no se puede iniciar: ya hay algo escuchando en el puerto de ${taken.join(", ")}. Deténgalo, o elija otros ` +
      "puertos con STACK_PORT, STACK_PORTAL_PORTS, MOCKS_HTTP_PORT y MOCKS_SMTP_PORT.",
  );
  process.exit(1);
}

if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
  console.error("npm run stack necesita PostgreSQL (DATABASE_URL=postgresql://…): la base embebida tiene un solo dueño.");
  process.exit(1);
}

/** Creates the database of DATABASE_URL when the server does not have it yet. */
async function ensureDatabase() {
  const target = new URL(databaseUrl);
  const name = decodeURIComponent(target.pathname.slice(1));
  const server = new URL(databaseUrl);
  server.pathname = "/postgres";
  const client = new pg.Client({ connectionString: server.toString() });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (found.rowCount === 0) {
      await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
      log(`base de datos ${name} creada`);
    }
  } finally {
    await client.end();
  }
}

/** One signing secret for both instances (a token made by one verifies on the other): JWT_SECRET, or this stack's own. */
function signingSecret() {
  if (env.JWT_SECRET) return env.JWT_SECRET;
  const file = "var/stack/jwt-secret";
  if (!existsSync(file)) {
    mkdirSync("var/stack", { recursive: true });
    writeFileSync(file, randomBytes(32).toString("base64url"), { mode: 0o600 });
  }
  return readFileSync(file, "utf8").trim();
}

function runOnce(label, script, extraEnv) {
  const result = spawnSync(node, scriptArgs(script), { stdio: "inherit", env: { ...env, ...extraEnv } });
  if (result.status !== 0) {
    console.error(`stack: ${label} falló (código ${result.status})`);
    process.exit(result.status ?? 1);
  }
}

log("compilando el servidor…");
await buildServer("dist");
await ensureDatabase();
const shared = {
  DATABASE_URL: databaseUrl,
  REDIS_URL: redisUrl,
  JWT_SECRET: signingSecret(),
  // A mail server of the operator's (or a fault run's) instead of the mocks' catcher.
  SMTP_PORT: env.SMTP_PORT ?? smtpPort,
  CLINIC_PORTAL_URL_TEMPLATE: env.CLINIC_PORTAL_URL_TEMPLATE ?? `http://{alias}.localhost:${proxyPort}`,
};
runOnce("la migración", "dist/cli/migrate.js", shared);
if (env.STACK_SEED !== "false" && env.NODE_ENV !== "production") runOnce("la carga de datos de demostración", "dist/cli/seed.js", shared);
if (env.SKIP_WEB_BUILD !== "true") {
  log("construyendo la aplicación web…");
  const npx = process.platform === "win32" ? "npx.cmd" : "npx";
  const build = spawnSync(npx, ["vite", "build", "--config", "web/vite.config.ts", "--logLevel", "warn"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// An instance that dies is restarted (like the compose `restart: unless-stopped` policy), after 1 s, while the other
// keeps serving behind the proxy; one that dies more than 5 times in a minute is left down and reported.
const portalSpecs = new Map();
const deaths = new Map();
const supervisor = createSupervisor({
  // On stopping, the replicas first (each drains its requests and jobs), then the simulators they call.
  stopLast: ["mocks"],
  onChildExit: (name, code, signal) => {
    const spec = portalSpecs.get(name);
    const recent = (deaths.get(name) ?? []).filter((at) => at > Date.now() - 60_000);
    recent.push(Date.now());
    deaths.set(name, recent);
    if (!spec || recent.length > 5) return log(`${name} terminó (${signal ?? `código ${code}`}); el resto sigue atendiendo`);
    log(`${name} terminó (${signal ?? `código ${code}`}); se reinicia en 1 s, el resto sigue atendiendo`);
    setTimeout(() => {
      if (!supervisor.stopping) start(name, spec.script, spec.env, spec.nodeArgs);
    }, 1_000).unref();
  },
});
const start = (name, script, childEnv, nodeArgs) => log(`${name} pid=${supervisor.start(name, script, childEnv, nodeArgs)}`);

start("mocks", "dist/mocks/start.js", {
  MOCKS_FRAME_ANCESTORS: `http://localhost:${proxyPort} http://*.localhost:${proxyPort}`,
  ...env,
  MOCKS_HTTP_PORT: mocksPort,
  MOCKS_SMTP_PORT: smtpPort,
});
portalPorts.forEach((port, index) => {
  const spec = {
    script: "dist/server/main.js",
    nodeArgs: portalNodeArgs,
    env: {
      ...portalProcessEnv,
      ...portalEnv(env, String(port), mocksPort),
      ...shared,
      HOST: "127.0.0.1",
      MIGRATE_ON_START: "false",
      SEED_DEMO: "false",
      TRUST_PROXY_HOPS: "1",
      // The stack always runs the simulators: with NODE_ENV=production (load and fault runs) that is a demonstration,
      // which production otherwise refuses (server/ops/production-guard.ts).
      PORTAL_DEMO: env.PORTAL_DEMO ?? "true",
    },
  };
  portalSpecs.set(`portal-${index + 1}`, spec);
  start(`portal-${index + 1}`, spec.script, spec.env, spec.nodeArgs);
});
const proxy = await startProxy({
  port: proxyPort,
  host: env.STACK_HOST ?? "127.0.0.1",
  backends: portalPorts.map((port, index) => ({ name: `portal-${index + 1}`, host: "127.0.0.1", port })),
  log,
});

supervisor.stopOnSignals(() => {
  log("deteniendo…");
  void proxy.close();
});

// Ready once every instance answers /readyz through its own port.
const deadline = Date.now() + 120_000;
for (const port of portalPorts) {
  while (!supervisor.stopping && Date.now() < deadline) {
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) break;
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}
if (!supervisor.stopping) {
  log(
    `listo en http://localhost:${proxyPort} (instancias ${portalPorts.map((port) => `:${port}`).join(" y ")}; PostgreSQL ${new URL(databaseUrl).pathname.slice(1)}; Redis ${redisUrl})`,
  );
}
