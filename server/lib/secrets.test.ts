import { mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { estimatedSecretBits, installationSecret, publishedSecrets, secretProblem } from "./secrets.ts";

describe("signing secrets (issue 9, finding 4)", () => {
  it("refuses every secret written anywhere in the repository's documentation or configuration", () => {
    // Every text file of docs/ (docs/img holds the charts the runs write).
    const docs = readdirSync("docs", { withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => `docs/${entry.name}`);
    const files = [".env.example", "docker-compose.yml", "README.md", "Dockerfile", ...docs];
    for (const file of files) {
      for (const match of readFileSync(file, "utf8").matchAll(/JWT_SECRET[=:][ \t]*"?([A-Za-z0-9+/=_.-]{8,})/g)) {
        expect(publishedSecrets, `${file}: ${match[1]}`).toContain(match[1]);
      }
    }
    for (const secret of publishedSecrets) expect(secretProblem(secret)).toMatch(/publicado/);
  });

  it("refuses secrets with less than 32 bytes of entropy, however long", () => {
    expect(secretProblem("x".repeat(200))).toMatch(/32 bytes/);
    expect(secretProblem("ab".repeat(50))).toMatch(/32 bytes/);
    expect(secretProblem("clave-de-la-clinica-del-sur-2026")).toMatch(/32 bytes/);
    expect(secretProblem("0123456789abcdef0123456789abcdef")).toMatch(/32 bytes/);
  });

  it("accepts 32 random bytes as hex or base64", () => {
    expect(secretProblem("9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08")).toBeNull();
    expect(secretProblem("n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=")).toBeNull();
    expect(estimatedSecretBits("n4bQgYhMfWWaL-qgxVrQFaO_TxsrC4Is0V1sFbDwCgg")).toBeGreaterThanOrEqual(256);
  });

  it("generates a development secret once per installation and keeps it private to the owner", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "secreto-"));
    const file = path.join(dir, "var", "jwt-secret");
    const first = installationSecret(file);
    expect(installationSecret(file)).toBe(first);
    expect(secretProblem(first)).toBeNull();
    expect(statSync(file).mode & 0o077).toBe(0);
    expect(installationSecret(path.join(mkdtempSync(path.join(tmpdir(), "otro-")), "jwt-secret"))).not.toBe(first);
  });
});
