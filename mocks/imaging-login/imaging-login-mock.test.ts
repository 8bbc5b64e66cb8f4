import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { imagingLoginMock } from "./imaging-login-mock.ts";

describe("imaging login mock", () => {
  it("serves the shared imaging login page and answers its form without checking anything", async () => {
    const app = Fastify();
    await app.register(imagingLoginMock);
    const page = await app.inject({ method: "GET", url: "/imagenologia/login" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.body).toContain("cuenta de imagenología");
    const posted = await app.inject({
      method: "POST",
      url: "/imagenologia/login",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      payload: "usuario=demo&clave=demo",
    });
    expect(posted.statusCode).toBe(200);
    expect(posted.body).toContain("no valida cuentas");
    await app.close();
  });
});
