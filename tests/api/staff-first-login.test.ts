import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createCallerFactory } from "../../server/trpc/trpc.ts";
import { createContextInner } from "../../server/trpc/context.ts";
import { appRouter } from "../../server/trpc/router.ts";
import { enrolSecondFactor } from "../helpers/second-factor.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { rutOf } from "../helpers/fixtures.ts";
import { PASSWORD_CHANGE_CLINIC } from "../../server/contract/clinics.ts";

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(() => ctx.close());

const required = "Debe cambiar su contraseña temporal antes de continuar";

describe("a new staff account on its temporary password", () => {
  it("is refused the staff endpoints until it replaces the mailed password, then works", async () => {
    const admin = await ctx.login(demo.admin.rut, demo.admin.password, "staff");
    const rut = rutOf(35_000_001);
    const email = "nuevo.ejecutivo@clinica.cl";
    const created = await ctx.app.inject({
      method: "POST",
      url: api("/admin"),
      headers: bearer(admin),
      payload: { rut, email, roleType: 1, rcrLink: "http://clinicasur.localhost:4200" },
    });
    expect(created.statusCode).toBe(200);
    const temporary = /Contraseña temporal: (\S+)/.exec((await ctx.mail.waitFor(email)).text)![1]!;

    const token = await ctx.login(rut, temporary, "staff");
    const list = await ctx.app.inject({ method: "GET", url: api("/admin/filter/users?page=1&limit=10"), headers: bearer(token) });
    expect(list.statusCode).toBe(403);
    expect(list.json().message).toBe(required);
    const caller = createCallerFactory(appRouter)(createContextInner(ctx.app.deps, { ip: "127.0.0.1" }, `Bearer ${token}`));
    await expect(caller.users.list({})).rejects.toMatchObject({ code: "FORBIDDEN", message: required });
    // Nor can it set up the second factor yet (issue 42): over REST and tRPC alike, and nothing is stored.
    for (const step of ["setup", "confirm"]) {
      const refused = await ctx.app.inject({
        method: "POST",
        url: api(`/auth/second-factor/${step}`),
        headers: bearer(token),
        payload: { code: "123456" },
      });
      expect(refused.statusCode, step).toBe(403);
      expect(refused.json().message).toBe(required);
    }
    await expect(caller.auth.startSecondFactor()).rejects.toMatchObject({ code: "FORBIDDEN", message: required });
    const stored = await ctx.db.prisma.user.findFirstOrThrow({ where: { email }, select: { totpPendingSecret: true } });
    expect(stored.totpPendingSecret).toBeNull();

    const changed = await ctx.app.inject({
      method: "POST",
      url: api(`/auth/change-password-user?clinic=${PASSWORD_CHANGE_CLINIC}`),
      headers: bearer(token),
      payload: { oldPassword: temporary, password: "EjecutivoPropio2026", passwordConfirmation: "EjecutivoPropio2026", rut },
    });
    expect(changed.statusCode).toBe(200);
    const fresh: string = changed.json().payload.accessToken;
    // Then the second factor (issue 27), which staff must set up before the staff pages.
    const beforeSetup = await ctx.app.inject({ method: "GET", url: api("/admin/filter/users?page=1&limit=10"), headers: bearer(fresh) });
    expect(beforeSetup.statusCode).toBe(403);
    expect(beforeSetup.json().message).toBe("Debe configurar la verificación en dos pasos antes de continuar");
    await enrolSecondFactor(ctx.app, fresh);
    const afterChange = await ctx.app.inject({ method: "GET", url: api("/admin/filter/users?page=1&limit=10"), headers: bearer(fresh) });
    expect(afterChange.statusCode).toBe(200);
  });
});
