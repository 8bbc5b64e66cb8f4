import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";
import { buildMocksApp, type MocksAppOptions } from "./app.ts";
import { startMailCatcher } from "./mail/mail-catcher.ts";
import type { WebpayMockOptions } from "./webpay/webpay-mock.ts";
import { loadEnvFile } from "../server/lib/env-file.mjs";

export interface StartMocksOptions {
  host?: string;
  /** 0 picks a free port. */
  httpPort?: number;
  /** 0 picks a free port. */
  smtpPort?: number;
  frameAncestors?: string[];
  webpay?: WebpayMockOptions;
  claveUnica?: MocksAppOptions["claveUnica"];
}

export interface RunningMocks {
  close(): Promise<void>;
  httpUrl: string;
  smtpPort: number;
}

function urlHost(host: string): string {
  return host.includes(":") ? `[${host}]` : host;
}

export async function startMocks(options: StartMocksOptions = {}): Promise<RunningMocks> {
  const host = options.host ?? "127.0.0.1";
  const mailCatcher = await startMailCatcher({ host, port: options.smtpPort ?? 2525 });
  const app = buildMocksApp({
    mailStore: mailCatcher.store,
    frameAncestors: options.frameAncestors,
    webpay: options.webpay,
    claveUnica: options.claveUnica,
  });
  try {
    await app.listen({ host, port: options.httpPort ?? 4300 });
  } catch (error) {
    await mailCatcher.close();
    throw error;
  }
  const { port: httpPort } = app.server.address() as AddressInfo;
  return {
    httpUrl: `http://${urlHost(host)}:${httpPort}`,
    smtpPort: mailCatcher.port,
    close: async () => {
      await app.close();
      await mailCatcher.close();
    },
  };
}

function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) {
    throw new Error(`${name} debe ser un puerto entre 0 y 65535 (valor recibido: «${raw}»)`);
  }
  return port;
}

function secondsFromEnv(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const seconds = Number(raw);
  if (!Number.isInteger(seconds) || seconds < 1)
    throw new Error(`${name} debe ser un número entero de segundos (valor recibido: «${raw}»)`);
  return seconds;
}

function listFromEnv(name: string): string[] {
  return (process.env[name] ?? "").split(/[\s,]+/).filter(Boolean);
}

async function main(): Promise<void> {
  const mocks = await startMocks({
    host: process.env.MOCKS_HOST?.trim() || undefined,
    httpPort: portFromEnv("MOCKS_HTTP_PORT", 4300),
    smtpPort: portFromEnv("MOCKS_SMTP_PORT", 2525),
    frameAncestors: listFromEnv("MOCKS_FRAME_ANCESTORS"),
    webpay: {
      tokenTtlMs: secondsFromEnv("WEBPAY_MOCK_TOKEN_TTL_SECONDS", 300) * 1000,
      publicUrl: process.env.WEBPAY_MOCK_PUBLIC_URL?.trim() || undefined,
    },
    claveUnica: { publicUrl: process.env.CLAVEUNICA_MOCK_PUBLIC_URL?.trim() || undefined },
  });
  const smtpHost = new URL(mocks.httpUrl).hostname;
  console.log(`Simuladores listos en ${mocks.httpUrl}`);
  console.log(`  Correos recibidos: ${mocks.httpUrl}/mail`);
  console.log(`  Webpay Plus: ${mocks.httpUrl}/webpay`);
  console.log(`  ClaveÚnica (OpenID Connect): ${mocks.httpUrl}/claveunica/.well-known/openid-configuration`);
  console.log(`  SMTP: ${smtpHost}:${mocks.smtpPort} (sin TLS ni autenticación)`);

  const shutdown = (signal: NodeJS.Signals) => {
    console.log(`${signal} recibido, cerrando simuladores…`);
    mocks.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  };
  process.once("SIGINT", shutdown);
  process.once("SIGTERM", shutdown);
}

const isRunDirectly = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isRunDirectly) {
  loadEnvFile();
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
