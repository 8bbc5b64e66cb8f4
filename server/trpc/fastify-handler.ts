import { Readable } from "node:stream";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { incomingMessageToRequest } from "@trpc/server/adapters/node-http";
import {
  getErrorShape,
  getHTTPStatusCodeFromError,
  getProcedureAtPath,
  getTRPCErrorFromUnknown,
  resolveResponse,
  type AnyProcedure,
} from "@trpc/server/unstable-core-do-not-import";
import type { CreateFastifyContextOptions } from "@trpc/server/adapters/fastify";
import type { TRPCError } from "@trpc/server";
import type { Context } from "./context.ts";
import type { AppRouter } from "./router.ts";

// tRPC over Fastify. The web app's calls (httpLink: one query by GET ?input=, one mutation by POST with a JSON body)
// go straight to the procedure, with tRPC's own error shapes and status codes; anything else (batches, streaming,
// malformed input, unknown paths) goes through tRPC's full resolveResponse. The stock fastifyTRPCPlugin converted
// every request into a fetch Request and streamed back a fetch Response: that bridge cost 0.3–0.4 ms per call, more
// than the service call it carried (issue 14 measured tRPC at a quarter of REST's throughput for the same service).

export interface TrpcHandlerOptions {
  router: AppRouter;
  createContext(options: CreateFastifyContextOptions): Context | Promise<Context>;
  onError(options: { error: TRPCError; path: string | undefined }): void;
}

export async function trpcRoutes(app: FastifyInstance, options: TrpcHandlerOptions): Promise<void> {
  // tRPC reads the raw body itself (as the stock plugin does): JSON arrives as a string, anything else untouched.
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => done(null, body));
  app.removeContentTypeParser("multipart/form-data");
  app.addContentTypeParser("multipart/form-data", {}, (_request, body, done) => done(null, body));

  // The router does not change once built: each path's procedure is looked up once.
  const procedures = new Map<string, AnyProcedure>();
  const lookUp = async (path: string): Promise<AnyProcedure | null> => {
    const procedure = (await getProcedureAtPath(options.router, path)) as AnyProcedure | null;
    // Unknown paths are not kept: whoever sends them must not grow the map.
    if (procedure) procedures.set(path, procedure);
    return procedure;
  };

  app.all("/:path", async (request: FastifyRequest<{ Params: { path: string } }>, reply: FastifyReply) => {
    const path = request.params.path;
    const single = singleCall(procedures.get(path) ?? (await lookUp(path)), request);
    if (single) {
      const { procedure, type, input } = single;
      const ctx = await options.createContext({ req: request, res: reply, info: undefined as never });
      reply.header("content-type", "application/json");
      try {
        const data: unknown = await procedure({
          ctx,
          path,
          type,
          getRawInput: async () => input,
          signal: undefined,
          batchIndex: 0,
        });
        return reply.code(200).send(JSON.stringify({ result: { data } }));
      } catch (cause) {
        const error = getTRPCErrorFromUnknown(cause);
        options.onError({ error, path });
        const shape = getErrorShape({ config: options.router._def._config, error, type, path, input, ctx });
        return reply.code(getHTTPStatusCodeFromError(error)).send(JSON.stringify({ error: shape }));
      }
    }
    const incoming = request.raw as typeof request.raw & { body?: unknown };
    if ("body" in request) incoming.body = request.body;
    const response = await resolveResponse({
      router: options.router,
      path: request.params.path,
      req: incomingMessageToRequest(incoming, reply.raw, { maxBodySize: null }),
      error: null,
      createContext: async () => options.createContext({ req: request, res: reply, info: undefined as never }),
      onError: ({ error, path }) => options.onError({ error, path }),
    });
    reply.code(response.status);
    // Framing is Node's to choose (length for a whole body, chunked for a stream): a Web Response's own
    // transfer-encoding or content-length copied beside it would frame the message twice (issue 42, point 5).
    response.headers.forEach((value, name) => {
      if (!framingHeaders.has(name)) void reply.header(name, value);
    });
    const streamed = response.headers.get("transfer-encoding") !== null;
    return reply.send(streamed && response.body ? Readable.fromWeb(response.body as NodeReadableStream) : await response.text());
  });
}

/** Hop-by-hop and length headers: they describe one connection's framing, not the answer. */
const framingHeaders = new Set(["transfer-encoding", "content-length", "connection", "keep-alive"]);

/** The procedure, its type and its raw input when the request is one plain call the fast path answers exactly as tRPC would. */
function singleCall(
  procedure: AnyProcedure | null,
  request: FastifyRequest<{ Params: { path: string } }>,
): { procedure: AnyProcedure; type: "query" | "mutation"; input: unknown } | null {
  const query = request.query as Record<string, unknown>;
  if ("batch" in query || request.headers["trpc-accept"] !== undefined) return null;
  const type = request.method === "GET" ? "query" : request.method === "POST" ? "mutation" : null;
  if (!type) return null;
  if (!procedure || procedure._def.type !== type) return null;
  const text = type === "query" ? query.input : request.body;
  if (text === undefined || text === "") return { procedure, type, input: undefined };
  if (typeof text !== "string") return null;
  try {
    return { procedure, type, input: JSON.parse(text) as unknown };
  } catch {
    return null;
  }
}
