// npm start: builds the web app, starts the mock providers (http://localhost:4300, SMTP 2525) and the portal
// (http://localhost:4200) on the embedded database unless DATABASE_URL is set; migrations and demo data run at start-up.
import { spawnSync } from "node:child_process";
import { portalNodeArgs, portalProcessEnv } from "./portal-process.mjs";
import { portalEnv } from "./start-env.mjs";
import { createSupervisor, portsInUse } from "./supervisor.mjs";
import { loadEnvFile } from "../server/lib/env-file.mjs";
loadEnvFile();

const npx = process.platform === "win32" ? "npx.cmd" : "npx";
const portalPort = process.env.PORT ?? "4200";
const mocksPort = process.env.MOCKS_HTTP_PORT ?? "4300";
const smtpPort = process.env.MOCKS_SMTP_PORT ?? "2525";

const taken = await portsInUse({ "el portal": portalPort, "los proveedores simulados": mocksPort, "el correo simulado (SMTP)": smtpPort });
if (taken.length) {
  console.error(
    `No se puede iniciar: ya hay algo escuchando en el puerto de ${taken.join(", ")}; ¿otro npm start sigue corriendo? ` +
      "Deténgalo, o elija otros puertos con PORT, MOCKS_HTTP_PORT y MOCKS_SMTP_PORT.",
  );
  process.exit(1);
}

if (process.env.SKIP_WEB_BUILD !== "true") {
  console.log("Construyendo la aplicación web…");
  const build = spawnSync(npx, ["vite", "build", "--config", "web/vite.config.ts", "--logLevel", "warn"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// When either process ends on its own, the other is stopped too and the command exits with its code.
// On stopping, the portal first (it drains the mail it was sending), then the simulators it calls.
const supervisor = createSupervisor({ stopLast: ["mocks"], onChildExit: (_name, code) => supervisor.stop(code ?? 1) });
// The scheduling mock may be framed by this portal's own origins, whatever port it runs on.
supervisor.start("mocks", "mocks/start.ts", {
  MOCKS_FRAME_ANCESTORS: `http://localhost:${portalPort} http://*.localhost:${portalPort}`,
  ...process.env,
  MOCKS_HTTP_PORT: mocksPort,
});
// Request logs at "info" are for production log collectors; the console of npm start shows warnings and errors.
// Provider addresses follow MOCKS_HTTP_PORT (see start-env.mjs).
// The portal mails through the mocks' SMTP port unless SMTP_PORT says otherwise.
supervisor.start(
  "portal",
  "server/main.ts",
  {
    SMTP_PORT: smtpPort,
    ...portalProcessEnv,
    ...portalEnv(process.env, portalPort, mocksPort),
  },
  portalNodeArgs,
);
supervisor.stopOnSignals();

// Announce the URLs and the demo accounts once the portal answers.
const deadline = Date.now() + 120_000;
for (;;) {
  try {
    const response = await fetch(`http://localhost:${portalPort}/api/rcr/v1/health`);
    if (response.ok) break;
  } catch {
    // not up yet
  }
  if (supervisor.stopping || Date.now() > deadline) break;
  await new Promise((resolve) => setTimeout(resolve, 500));
}
if (!supervisor.stopping) {
  console.log(`
Portal Pacientes listo
  Portal:           http://localhost:${portalPort}   (cada clínica: http://<alias>.localhost:${portalPort}, p. ej. http://clinicasur.localhost:${portalPort})
  Proveedores mock: http://localhost:${mocksPort}   (correos recibidos: http://localhost:${mocksPort}/mail)
  Base de datos:    ${process.env.DATABASE_URL ? "PostgreSQL (DATABASE_URL)" : `embebida (PGlite en ${process.env.PGLITE_DIR ?? "./var/pglite"}; servida para comandos y psql en la dirección indicada arriba)`}

Cuentas de demostración (RUT / contraseña):
  Administrador             11.111.111-1 / Admin2026      → http://localhost:${portalPort}/admin-login
  Ejecutivo (hcs-rcr, maitenes) 22.222.222-2 / Ejecutivo2026 → http://localhost:${portalPort}/admin-login
  Paciente completo         12.345.678-5 / Paciente2026   (sus cuentas hospitalarias: http://clinicasur.localhost:${portalPort}/dashboard/my-bills)
  Paciente primer ingreso   15.555.555-6 / Temporal2026
  Paciente datos incompletos 16.789.012-1 / Paciente2026
Cuentas hospitalarias: en http://clinicasur.localhost:${portalPort} (Maitenes, el portal de http://localhost:${portalPort}, no las muestra);
  el personal las administra en http://clinicasur.localhost:${portalPort}/admin/admin-bills.
Ctrl+C para detener.`);
}
