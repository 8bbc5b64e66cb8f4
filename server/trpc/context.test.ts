import Fastify from "fastify";
import { describe, expect, test } from "vitest";
import type { AppDeps } from "../deps.ts";
import { contextFactory, type Context } from "./context.ts";

// The tRPC context of each HTTP call. Built on every call, so its shape is part of tRPC's own cost (issue 46 §1): a
// getter in it cost 25–30 µs of CPU per call, more than working out what it deferred (see createContextInner).
describe("the tRPC context", () => {
  async function contextOf<T>(headers: Record<string, string>, read: (context: Context) => T): Promise<T> {
    const app = Fastify({ trustProxy: (_address: string, hop: number) => hop < 1 });
    app.get("/", async (request, reply) => ({
      value: read(contextFactory({} as AppDeps)({ req: request, res: reply, info: undefined as never })),
    }));
    const answer = await app.inject({ method: "GET", url: "/", headers, remoteAddress: "10.0.0.2" });
    await app.close();
    return answer.json<{ value: T }>().value;
  }

  test("is made of data properties only, no accessors", async () => {
    const kinds = await contextOf({ authorization: "Bearer x" }, (context) =>
      Object.entries(Object.getOwnPropertyDescriptors(context)).map(([name, descriptor]) => [
        name,
        "value" in descriptor ? "data" : "accessor",
      ]),
    );
    expect(kinds).toEqual([
      ["deps", "data"],
      ["meta", "data"],
      ["authorization", "data"],
      ["getUser", "data"],
      ["setDeviceCookie", "data"],
    ]);
  });

  test("gives procedures the client address behind the proxy and the dependent named, also after a middleware adds to it", async () => {
    const seen = await contextOf(
      { authorization: "Bearer x", "x-forwarded-for": "200.1.2.3", "x-actuar-por": "7.654.321-K" },
      (context) => {
        // What tRPC does with a middleware's next({ ctx: { user } }): a copy of the context's own properties.
        const added = { ...context, user: null };
        return [context.authorization, added.meta.ip, added.meta.actingFor, typeof added.getUser];
      },
    );
    expect(seen).toEqual(["Bearer x", "200.1.2.3", "7.654.321-K", "function"]);
  });
});
