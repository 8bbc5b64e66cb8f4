import { it } from "vitest";
import { api, bearer, createTestContext, demo } from "./tests/helpers/test-app.ts";

it("measures", async () => {
  const ctx = await createTestContext();
  const token = await ctx.login(demo.patient.rut, demo.patient.password);
  const headers = { ...bearer(token), host: "hcs.localhost" };
  const rest = () => ctx.app.inject({ method: "GET", url: api("/auth/validate-token"), headers });
  const trpc = () => ctx.app.inject({ method: "GET", url: "/trpc/auth.validateToken", headers });
  const run = async (f: () => Promise<unknown>, n: number) => {
    const c = process.cpuUsage();
    const t = performance.now();
    for (let i = 0; i < n; i++) await f();
    const d = process.cpuUsage(c);
    return { cpuUs: (d.user + d.system) / n, wallUs: ((performance.now() - t) * 1000) / n };
  };
  console.log((await rest()).body, (await trpc()).body);
  for (let r = 0; r < 4; r++) {
    await run(rest, 3000);
    await run(trpc, 3000);
  }
  for (let r = 0; r < 3; r++) console.log("rest", await run(rest, 5000), "trpc", await run(trpc, 5000));
  await ctx.close();
}, 300_000);
