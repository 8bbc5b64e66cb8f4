import { request } from "node:http";
import nodemailer from "nodemailer";
import { describe, expect, it } from "vitest";
import { startMocks } from "./start.ts";

describe("startMocks", () => {
  it("serves mail and scheduling mocks on free ports when asked for port 0", async () => {
    const mocks = await startMocks({ httpPort: 0, smtpPort: 0 });
    try {
      expect(mocks.smtpPort).toBeGreaterThan(0);
      expect(mocks.httpUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const transport = nodemailer.createTransport({ host: "127.0.0.1", port: mocks.smtpPort, secure: false });
      await transport.sendMail({ from: "portal@example.cl", to: "ana@example.cl", subject: "Prueba", text: "Hola" });
      transport.close();

      const messages = (await (await fetch(`${mocks.httpUrl}/mail/messages?to=ana@example.cl`)).json()) as { subject: string }[];
      const index = await fetch(`${mocks.httpUrl}/`);
      const agenda = await fetch(`${mocks.httpUrl}/agenda?externalCenterId=MPENA%4012`);

      expect(messages.map((message) => message.subject)).toEqual(["Prueba"]);
      expect(await index.text()).toContain('href="/agenda?externalCenterId=MPENA%4012"');
      expect(await agenda.text()).toContain("Reserva de horas – Maitenes Peñaflor");
    } finally {
      await mocks.close();
    }
  });

  it("closes at once while a slow provider's answer is still held for a client that keeps waiting", async () => {
    const mocks = await startMocks({ httpPort: 0, smtpPort: 0 });
    // A client with no timeout of its own: the slow mock holds its answer for a minute.
    const waiting = new Promise<string>((resolve) => {
      const held = request(`${mocks.httpUrl}/fallas/lenta/fhir/DiagnosticReport`, (response) => resolve(`answered ${response.statusCode}`));
      held.on("error", (error) => resolve(`cut: ${error.message}`));
      held.end();
    });
    await new Promise((resolve) => setTimeout(resolve, 300));

    const started = performance.now();
    await mocks.close();

    expect(performance.now() - started).toBeLessThan(5_000);
    expect(await waiting).toMatch(/^cut/);
  });
});
