import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.ts";
import { publishedSecrets } from "./lib/secrets.ts";

const realSecret = "n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg";

describe("configuration from the environment", () => {
  it("has working development defaults: embedded database, mail catcher, port 4200", () => {
    const config = loadConfig({});
    expect(config).toMatchObject({ PORT: 4200, SMTP_PORT: 2525, PGLITE_DIR: "./var/pglite" });
    expect(config.DATABASE_URL).toBeUndefined();
  });

  it("refuses to start production without a secret, with a published one, or with a weak one", () => {
    expect(() => loadConfig({ NODE_ENV: "production" })).toThrow(/JWT_SECRET es obligatorio/);
    for (const secret of publishedSecrets) {
      expect(() => loadConfig({ NODE_ENV: "production", JWT_SECRET: secret })).toThrow(/publicado en el repositorio/);
    }
    expect(() => loadConfig({ NODE_ENV: "production", JWT_SECRET: "x".repeat(40) })).toThrow(/32 bytes de entropía/);
    expect(loadConfig({ NODE_ENV: "production", JWT_SECRET: realSecret }).JWT_SECRET).toBe(realSecret);
  });

  it("never runs development on a shared secret: a published one is refused, none means this installation's own", () => {
    expect(() => loadConfig({ JWT_SECRET: publishedSecrets[0] })).toThrow(/publicado/);
    const config = loadConfig({});
    expect(publishedSecrets).not.toContain(config.JWT_SECRET);
    expect(loadConfig({}).JWT_SECRET).toBe(config.JWT_SECRET);
  });

  it("gives tests a random secret of their own", () => {
    expect(loadConfig({ NODE_ENV: "test" }).JWT_SECRET).not.toBe(loadConfig({ NODE_ENV: "test" }).JWT_SECRET);
  });

  it("names every invalid variable in Spanish", () => {
    expect(() => loadConfig({ PORT: "puerto", JWT_SECRET: "corto" })).toThrow(
      /Configuración inválida: .*PORT.*JWT_SECRET: JWT_SECRET debe tener al menos 32 caracteres/,
    );
    expect(() => loadConfig({ DATABASE_URL: "no es una url" })).toThrow(/DATABASE_URL/);
  });
});
