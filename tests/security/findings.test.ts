import net from "node:net";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { patternWork } from "../../server/contract/linear-pattern.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { expectSpanishClientError } from "./support/answers.ts";

// Issue 9: each finding of the security review, as the request that exposed it.

let ctx: TestContext;
let admin: string;
let executive: string;
let patient: string;
const logged: unknown[] = [];
beforeAll(async () => {
  ctx = await createTestContext();
  ctx.app.log.error = ((...args: unknown[]) => void logged.push(args)) as typeof ctx.app.log.error;
  admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
  executive = await ctx.login(demo.executive.rut, demo.executive.password, "staff");
  patient = await ctx.login(demo.patient.rut, demo.patient.password);
});
afterAll(() => ctx.close());

const nested = (depth: number) => "[".repeat(depth) + "]".repeat(depth);

describe("finding 1 and 2: crafted phone numbers and e-mails answer at once with the rule's message", () => {
  it("PATCH auth/user-edit, PATCH admin/:id and tRPC answer 400 for 40 digits followed by a letter", async () => {
    const phoneNumber = "1".repeat(40) + "a";
    const profile = { firstName: "María", lastName: "González", secondLastName: "Pérez", email: "m@correo.cl", birthDate: "1975-03-10" };
    const rest = await ctx.app.inject({
      method: "PATCH",
      url: api("/auth/user-edit"),
      headers: bearer(patient),
      payload: { ...profile, phoneNumber },
    });
    const staff = await ctx.app.inject({ method: "PATCH", url: api("/admin/999999"), headers: bearer(admin), payload: { phoneNumber } });
    const trpc = await ctx.app.inject({
      method: "POST",
      url: "/trpc/users.update",
      headers: bearer(admin),
      payload: { id: 1, phoneNumber },
    });
    for (const response of [rest, staff]) expect(response.json().message).toBe("Solo caracteres numéricos");
    expect(trpc.json().error.message).toBe("Solo caracteres numéricos");
  });

  it("an e-mail of dots is refused by its size, without reaching the pattern: 117 KB by the body limit, 12 KB by the rule's length", async () => {
    const createWith = (email: string) =>
      ctx.app.inject({ method: "POST", url: api("/admin"), headers: bearer(admin), payload: { rut: "9.999.999-3", email } });
    patternWork.reset();
    expect((await createWith("a@" + "a.".repeat(60_000) + "@")).statusCode).toBe(413);
    expect(patternWork.characters).toBe(0);

    const response = await createWith("a@" + "a.".repeat(6_000) + "@");
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe("La dirección de correo es incorrecta");
    // The patterns scanned the other fields at most, never the 12 KB: the length rule stopped it first.
    expect(patternWork.characters).toBeLessThan(1_000);
  });
});

describe("finding 6: no 500 from the input guard, and one guard for REST and tRPC", () => {
  it("deeply nested JSON answers 400 on REST and tRPC", async () => {
    const rest = await ctx.app.inject({
      method: "PATCH",
      url: api("/auth/user-edit"),
      headers: { ...bearer(patient), "content-type": "application/json" },
      payload: `{"email":${nested(5_000)}}`,
    });
    const trpc = await ctx.app.inject({
      method: "POST",
      url: "/trpc/account.updateProfile",
      headers: { ...bearer(patient), "content-type": "application/json" },
      payload: `{"email":${nested(5_000)}}`,
    });
    expect(rest.statusCode).toBe(400);
    expectSpanishClientError(rest);
    expect(trpc.statusCode).toBe(400);
    expectSpanishClientError(trpc);
  });

  it("multipart/form-data to tRPC answers 415", async () => {
    const response = await ctx.app.inject({
      method: "POST",
      url: "/trpc/account.updateProfile",
      headers: { ...bearer(patient), "content-type": "multipart/form-data; boundary=x" },
      payload: '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@b.cl\r\n--x--\r\n',
    });
    expect(response.statusCode).toBe(415);
    expectSpanishClientError(response);
  });

  it("an input-less tRPC mutation with an empty JSON body, as the web app sends it, still works", async () => {
    const response = await ctx.app.inject({
      method: "POST",
      url: "/trpc/terms.accept",
      headers: { ...bearer(patient), "content-type": "application/json" },
    });
    expect(response.statusCode).toBe(200);
  });

  it("a NUL inside a tRPC JSON body answers 400 with the REST message and changes nothing", async () => {
    const response = await ctx.app.inject({
      method: "POST",
      url: "/trpc/users.update",
      headers: bearer(admin),
      payload: { id: 3, firstName: "Ana\u0000" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.message).toBe("La solicitud contiene caracteres no permitidos");
  });

  it("a tRPC 500 is logged like a REST one", async () => {
    logged.length = 0;
    const original = ctx.db.prisma.user.findUnique;
    ctx.app.deps.prisma.user.findUnique = (() => Promise.reject(new Error("boom"))) as unknown as typeof original;
    try {
      const response = await ctx.app.inject({ method: "GET", url: "/trpc/account.me", headers: bearer(patient) });
      expect(response.statusCode).toBe(500);
      expect(JSON.stringify(response.json())).not.toContain("boom");
    } finally {
      ctx.app.deps.prisma.user.findUnique = original;
    }
    expect(inspect(logged, { depth: 5 })).toContain("boom");
  });
});

describe("finding 7: ids, headers, framing and timing", () => {
  it("only canonical positive integers are ids; anything else answers 400", async () => {
    for (const id of ["0x10", "+1", "01", "%201", "1%0a", "1e1", "1.0", "0", "-1", "１"]) {
      const response = await ctx.app.inject({ method: "GET", url: api(`/admin/${id}`), headers: bearer(admin) });
      expect(response.statusCode, id).toBe(400);
      expect(response.json().message).toBe("Identificador de usuario inválido");
    }
    const trpc = await ctx.app.inject({
      method: "GET",
      url: `/trpc/users.get?input=${encodeURIComponent('{"id":"0x10"}')}`,
      headers: bearer(admin),
    });
    expect(trpc.statusCode).toBe(400);
    expect((await ctx.app.inject({ method: "GET", url: api("/admin/1"), headers: bearer(admin) })).statusCode).toBe(200);
  });

  it("an executive's out-of-scope user and a missing one do the same work (one audit row each)", async () => {
    const before = await ctx.db.prisma.auditEvent.count();
    const outOfScope = await ctx.app.inject({ method: "GET", url: api("/admin/1"), headers: bearer(executive) });
    const afterOutOfScope = await ctx.db.prisma.auditEvent.count();
    const missing = await ctx.app.inject({ method: "GET", url: api("/admin/987654"), headers: bearer(executive) });
    const afterMissing = await ctx.db.prisma.auditEvent.count();
    expect(outOfScope.statusCode).toBe(404);
    expect(missing.body).toBe(outOfScope.body);
    expect(afterOutOfScope - before).toBe(afterMissing - afterOutOfScope);
  });

  it("oversized headers and malformed framing answer in Spanish over a real socket", async () => {
    const address = await ctx.app.listen({ host: "127.0.0.1", port: 0 });
    const port = Number(new URL(address).port);
    const raw = (request: string) =>
      new Promise<string>((resolve) => {
        const socket = net.connect(port, "127.0.0.1", () => socket.end(request));
        let answer = "";
        socket.on("data", (chunk) => (answer += chunk.toString()));
        socket.on("close", () => resolve(answer));
        socket.on("error", () => resolve(answer));
      });
    const huge = await raw(`GET /api/rcr/v1/health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`);
    const framing = await raw("GARBAGE\r\n\r\n");
    expect(huge).toMatch(/^HTTP\/1.1 431/);
    expect(huge).toContain("La cabecera de la solicitud es demasiado grande");
    expect(framing).toMatch(/^HTTP\/1.1 400/);
    expect(framing).toContain("Solicitud mal formada");
    expect(huge + framing).not.toMatch(/Exceeded|Client Error/);
  });
});
