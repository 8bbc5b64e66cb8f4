import { describe, expect, it } from "vitest";
import { DEV_JWT_SECRET, loadConfig } from "./config.ts";

describe("configuration from the environment", () => {
  it("has working development defaults: embedded database, mail catcher, port 4200", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 4200, SMTP_PORT: 2525, PGLITE_DIR: "./var/pglite" });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it("refuses to start production with the development signing secret", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(/JWT_SECRET usa el valor de desarrollo/);
    expect(() => loadConfig({ NODE_ENV: "production", JWT_SECRET: DEV_JWT_SECRET })).toThrow(/JWT_SECRET/);
    expect(loadConfig({ NODE_ENV: "production", JWT_SECRET: "x".repeat(40) }).NODE_ENV).toBe("production");
  });

  it("names every invalid variable in Spanish", () => {
    expect(() => loadConfig({ PORT: "puerto", JWT_SECRET: "corto" })).toThrow(
      /Configuración inválida: .*PORT.*JWT_SECRET: JWT_SECRET debe tener al menos 32 caracteres/,
    );
    expect(() => loadConfig({ DATABASE_URL: "no es una url" })).toThrow(/DATABASE_URL/);
  });
});
