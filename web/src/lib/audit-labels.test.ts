import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { auditResourceLabel } from "./audit-labels.ts";

// The audit screen's 'Recurso' column showed 'Appointment' in English (seen at 1280 px, issue 45's look again): every
// kind of record the server writes into the audit trail (each `resource: "…"` of its source) reads in Spanish.

const server = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../server");

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === "generated" ? [] : sources(full);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [full] : [];
  });
}

const written = new Set(
  sources(server).flatMap((file) => [...readFileSync(file, "utf8").matchAll(/\bresource: "([^"]+)"/g)].map((m) => m[1]!)),
);

describe("the audit screen's kinds of record", () => {
  it("finds the kinds the server writes", () => {
    expect(written).toContain("session");
    expect(written).toContain("Appointment");
  });

  it.each([...written])("names '%s' in Spanish", (resource) => {
    expect(auditResourceLabel(resource)).not.toBe(resource);
  });
});
