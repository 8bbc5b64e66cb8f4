import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { FastifyBaseLogger, FastifyInstance, FastifyServerOptions } from "fastify";
import type { AppConfig } from "../config.ts";
import { redactRutsInText, serializeRequest } from "../http/log-redaction.ts";

// Structured JSON logs (pino, Fastify's logger) with a request id on every line of a request, and no secrets or
// personal data: URLs are redacted by serializeRequest (log-redaction.ts); structured fields by pino's redact paths
// below, wherever a caller puts them (a logged body, an error's details, headers).

/** An incoming X-Request-Id is kept only when it is a short, safe token (a proxy's or a client's id); else a UUID. */
const safeRequestId = /^[\w.:-]{1,64}$/;

export function requestId(request: IncomingMessage): string {
  const incoming = request.headers["x-request-id"];
  return typeof incoming === "string" && safeRequestId.test(incoming) ? incoming : randomUUID();
}

const secretKeys = [
  "authorization",
  "cookie",
  "set-cookie",
  "password",
  "passwordConfirmation",
  "newPassword",
  "currentPassword",
  "oldPassword",
  "token",
  "accessToken",
  "resetToken",
  "token_ws",
  "TBK_TOKEN",
  "link",
  "resetLink",
  "rut",
  "email",
  "card_number",
  "cardNumber",
  "card_detail",
  "cvv",
  "body",
  "headers",
  // ioredis puts the failed command on its errors: the keys name RUTs and addresses.
  "args",
];

/** Any of those keys at the top of a log line or up to three levels down. */
export const redactPaths = secretKeys.flatMap((key) => {
  const k = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`;
  const sep = k.startsWith("[") ? "" : ".";
  return [k, `*${sep}${k}`, `*.*${sep}${k}`, `*.*.*${sep}${k}`];
});

/** Fastify's logger settings; `stream` replaces stdout (tests capture the log). */
export function loggerOptions(config: AppConfig, stream?: NodeJS.WritableStream): FastifyServerOptions["logger"] {
  return {
    level: config.LOG_LEVEL,
    serializers: { req: serializeRequest },
    redact: { paths: redactPaths, censor: "[oculto]" },
    // Free text (error messages and details from the database or a provider) can name a RUT anywhere.
    hooks: { streamWrite: redactRutsInText },
    ...(stream ? { stream } : {}),
  };
}

/** Request-id settings of the Fastify constructor (Fastify logs the id as reqId). */
export const requestIdOptions = { genReqId: requestId, requestIdHeader: false } as const;

/** Every answer — REST, tRPC, static files, errors, refusals — carries its request id. */
export function registerRequestIdHeader(app: FastifyInstance): void {
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
}

type Bindings = Parameters<FastifyBaseLogger["child"]>[0];
type ChildLoggerOptions = NonNullable<Parameters<FastifyBaseLogger["child"]>[1]>;
type LogMethod = "fatal" | "error" | "warn" | "info" | "debug" | "trace";

/**
 * A request's logger that creates its pino child on the first line actually written. pino redacts a child's bindings
 * when it is made (every redact path, wildcards included): done for every request, that was 3–4 % of the CPU of the
 * cheapest routes in profiles, for a child most requests never write to at the production level.
 */
class LazyRequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger & { isLevelEnabled?(level: string): boolean },
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options));
  }

  private write(level: LogMethod, args: unknown[]): void {
    if (this.parent.isLevelEnabled?.(level) === false) return;
    (this.logger[level] as (...line: unknown[]) => void)(...args);
  }

  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }
  set level(level: string) {
    this.logger.level = level;
  }
  // Methods on the prototype, called on the logger (request.log.info(…)) as pino's own are: arrow-function fields
  // were seven closures made for every request, which most requests never call.
  fatal(...args: unknown[]): void {
    this.write("fatal", args);
  }
  error(...args: unknown[]): void {
    this.write("error", args);
  }
  warn(...args: unknown[]): void {
    this.write("warn", args);
  }
  info(...args: unknown[]): void {
    this.write("info", args);
  }
  debug(...args: unknown[]): void {
    this.write("debug", args);
  }
  trace(...args: unknown[]): void {
    this.write("trace", args);
  }
  silent(): void {}
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger (bindings: its reqId). */
export const childLoggerFactory = (logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger =>
  new LazyRequestLogger(logger, bindings, options);
