import { describe, expect, it } from "vitest";
import { claveUnicaFailures } from "@contract/claveunica.ts";
import { claveUnicaMessage } from "./claveunica-messages.ts";

describe("claveUnicaMessage", () => {
  it("gives each refusal reason of the server, and a missing pick-up, a message of its own", () => {
    const reasons = [...claveUnicaFailures, "sin-sesion"];
    const messages = reasons.map((reason) => claveUnicaMessage(reason));
    for (const [index, message] of messages.entries()) expect(message, reasons[index]).toBeTruthy();
    expect(new Set(messages).size).toBe(reasons.length);
  });

  it("says the Rut and password way still works, except where it cannot (staff, a closed account)", () => {
    for (const reason of ["cancelado", "no-disponible", "rechazado", "vencido", "otra-clinica", "sin-sesion", "sin-cuenta"])
      expect(claveUnicaMessage(reason), reason).toMatch(/Rut y contraseña/);
    expect(claveUnicaMessage("sin-cuenta")).toMatch(/Pida a la clínica/);
  });

  it("reads an unknown reason as a failed validation, and no reason as no message", () => {
    expect(claveUnicaMessage("<script>")).toBe(claveUnicaMessage("rechazado"));
    expect(claveUnicaMessage(null)).toBeNull();
  });
});
