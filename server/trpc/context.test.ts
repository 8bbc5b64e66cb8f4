import Fastify from "fastify";
import { describe, expect, test } from "vitest";
import type { AppDeps } from "../deps.ts";
import { contextFactory } from "./context.ts";

// The tRPC context works out the request's meta (client address behind the proxy, cookies, X-Actuar-Por) only when a
// procedure first reads it: auth.validateToken never does, and issue 46 holds tRPC's own cost on such calls.
describe("the tRPC context", () => {
  async function contextOf(headers: Record<string, string>, read: (context: ReturnType<ReturnType<typeof contextFactory>>) => unknown) {
    const app = Fastify({ trustProxy: (_address: string, hop: number) => hop < 1 });
    const reads: string[] = [];
    app.get("/", async (request, reply) => {
      const watched = new Proxy(request, {
        get(target, key, receiver) {
          if (key === "ip" || key === "headers") reads.push(String(key));
          return Reflect.get(target, key, receiver) as unknown;
        },
      });
      const context = contextFactory({} as AppDeps)({ req: watched, res: reply, info: undefined as never });
      const before = reads.filter((key) => key === "ip").length;
      return { value: read(context), ipReadsBeforeUse: before, ipReads: reads.filter((key) => key === "ip").length };
    });
    const answer = await app.inject({ method: "GET", url: "/", headers, remoteAddress: "10.0.0.2" });
    await app.close();
    return answer.json<{ value: unknown; ipReadsBeforeUse: number; ipReads: number }>();
  }

  test("does not work out the client address for a call that never reads it", async () => {
    const result = await contextOf({ authorization: "Bearer x" }, (context) => context.authorization);
    expect(result).toEqual({ value: "Bearer x", ipReadsBeforeUse: 0, ipReads: 0 });
  });

  test("gives a procedure that reads it the client address behind the proxy and the dependent named, worked out once", async () => {
    const result = await contextOf({ "x-forwarded-for": "200.1.2.3", "x-actuar-por": "7.654.321-K" }, (context) => [
      context.meta.ip,
      context.meta.actingFor,
      context.meta.ip,
    ]);
    expect(result.value).toEqual(["200.1.2.3", "7.654.321-K", "200.1.2.3"]);
    expect(result.ipReads).toBe(1);
  });
});
