import type { AppConfig } from "./config.ts";
import type { PrismaClient } from "./generated/prisma/client.ts";
import type { Mailer } from "./lib/mailer.ts";
import type { Providers } from "./providers/index.ts";

/** What services need from the outside world; built once in buildApp and passed to every service call. */
export interface AppDeps {
  config: AppConfig;
  prisma: PrismaClient;
  mailer: Mailer;
  /** External providers (card payment, …), built from configuration by createProviders. */
  providers: Providers;
  /** Reports a failure of work that runs after the answer was sent (background mail). */
  logError(error: unknown, message: string): void;
}

/** Who is asking: the network address and, once authenticated, the user. */
export interface RequestMeta {
  ip: string;
}
