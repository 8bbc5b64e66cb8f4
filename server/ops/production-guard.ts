import { WEBPAY_INTEGRATION_API_KEY, WEBPAY_INTEGRATION_COMMERCE_CODE } from "../providers/payments/payments.config.ts";

// Production never runs on the simulators by accident (issue 34): a forgotten variable must not approve card payments
// with the mock, send password-reset mails to the catcher (readable by anyone who reaches it) or show patients the
// simulated laboratory. The portal refuses to start (main.ts) while any provider or SMTP setting points at the mocks,
// or Webpay carries Transbank's public integration credentials, unless PORTAL_DEMO=true says this is a demonstration.

export interface ProductionGuardSettings {
  NODE_ENV: string;
  PORTAL_DEMO: boolean;
  SMTP_HOST: string;
  SMTP_PORT: number;
  WEBPAY_BASE_URL: string;
  WEBPAY_COMMERCE_CODE: string;
  WEBPAY_API_KEY: string;
  WEBPAY_FORM_ORIGIN?: string | undefined;
  LAB_FHIR_BASE_URL: string;
  SCHEDULING_FHIR_BASE_URL: string;
  IMAGING_DICOMWEB_BASE_URL: string;
  IMAGING_VIEWER_URL_TEMPLATE: string;
  IMAGING_LOGIN_URL: string;
  SCHEDULING_URL_TEMPLATE: string;
  LAB_SITE_URL_TEMPLATE: string;
  CLINIC_PORTAL_URL_TEMPLATE: string;
  CLAVEUNICA_ISSUER?: string | undefined;
}

export interface ProductionProblem {
  variable: keyof ProductionGuardSettings;
  message: string;
}

/** The simulators' HTTP port (mocks/start.ts) and the mail catcher's SMTP port. */
const MOCKS_HTTP_PORT = "4300";
const MAIL_CATCHER_PORT = 2525;
/** Transbank's integration environment: accepts only test cards, never charges anyone. */
const WEBPAY_INTEGRATION_HOST = "webpay3gint.transbank.cl";

const isLoopback = (host: string) =>
  host === "localhost" || host.endsWith(".localhost") || host === "::1" || host === "[::1]" || /^127\./.test(host);

/** What makes an address one of the simulators, or null: the compose service, the mocks' port, their failure paths. */
function mockReason(address: string): string | null {
  // Templates carry {placeholders}; any value stands in for them to read the host and path.
  let url: URL;
  try {
    url = new URL(address.replace(/\{[^}]*\}/g, "0"));
  } catch {
    return null;
  }
  const host = url.hostname.toLowerCase();
  if (host === "mocks") return "apunta al servicio de simuladores (mocks)";
  if (isLoopback(host) && url.port === MOCKS_HTTP_PORT) return `apunta a los simuladores (${host}:${MOCKS_HTTP_PORT})`;
  if (url.pathname.includes("/fallas/")) return "apunta a una ruta de fallas simuladas (/fallas/)";
  return null;
}

/** Addresses the portal calls and addresses the patient's browser opens: none may be a simulator in production. */
const urlSettings = [
  "WEBPAY_BASE_URL",
  "WEBPAY_FORM_ORIGIN",
  "LAB_FHIR_BASE_URL",
  "SCHEDULING_FHIR_BASE_URL",
  "IMAGING_DICOMWEB_BASE_URL",
  "IMAGING_VIEWER_URL_TEMPLATE",
  "IMAGING_LOGIN_URL",
  "SCHEDULING_URL_TEMPLATE",
  "LAB_SITE_URL_TEMPLATE",
  "CLINIC_PORTAL_URL_TEMPLATE",
  "CLAVEUNICA_ISSUER",
] as const satisfies ReadonlyArray<keyof ProductionGuardSettings>;

/** Every setting that makes this a demonstration rather than a clinic's production; empty outside production or in a demo. */
export function productionProblems(config: ProductionGuardSettings): ProductionProblem[] {
  if (config.NODE_ENV !== "production" || config.PORTAL_DEMO) return [];
  const problems: ProductionProblem[] = [];
  const smtpHost = config.SMTP_HOST.toLowerCase();
  if (smtpHost === "mocks") {
    problems.push({ variable: "SMTP_HOST", message: "SMTP_HOST apunta al receptor de correo de los simuladores (mocks)" });
  } else if (isLoopback(smtpHost) && config.SMTP_PORT === MAIL_CATCHER_PORT) {
    problems.push({
      variable: "SMTP_HOST",
      message: `SMTP_HOST y SMTP_PORT apuntan al receptor de correo de los simuladores (${smtpHost}:${MAIL_CATCHER_PORT})`,
    });
  }
  for (const variable of urlSettings) {
    const value = config[variable];
    const reason = value === undefined ? null : mockReason(value);
    if (reason) problems.push({ variable, message: `${variable} ${reason}: ${value}` });
  }
  if (config.WEBPAY_COMMERCE_CODE === WEBPAY_INTEGRATION_COMMERCE_CODE) {
    problems.push({
      variable: "WEBPAY_COMMERCE_CODE",
      message: `WEBPAY_COMMERCE_CODE es el código de comercio de integración de Transbank (${WEBPAY_INTEGRATION_COMMERCE_CODE}), que no cobra a nadie`,
    });
  }
  if (config.WEBPAY_API_KEY === WEBPAY_INTEGRATION_API_KEY) {
    problems.push({ variable: "WEBPAY_API_KEY", message: "WEBPAY_API_KEY es la llave pública de integración de Transbank" });
  }
  if (new URL(config.WEBPAY_BASE_URL).hostname === WEBPAY_INTEGRATION_HOST) {
    problems.push({
      variable: "WEBPAY_BASE_URL",
      message: `WEBPAY_BASE_URL es el ambiente de integración de Transbank (${WEBPAY_INTEGRATION_HOST}), que solo acepta tarjetas de prueba`,
    });
  }
  return problems;
}

/** The message the portal prints when it refuses to start; names each variable. */
export function productionRefusal(problems: ProductionProblem[]): string {
  return [
    "El portal no se inicia en producción (NODE_ENV=production) con proveedores simulados o credenciales de prueba:",
    ...problems.map((problem) => `  - ${problem.message}.`),
    "Configure los proveedores reales (docs/operacion.md, 'Proveedores reales'). Si esto es una demostración, defina PORTAL_DEMO=true.",
  ].join("\n");
}
