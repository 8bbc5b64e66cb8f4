import { createServer, type AddressInfo, type Socket } from "node:net";
import { SMTPServer } from "smtp-server";
import { describe, expect, it } from "vitest";
import { createSmtpMailClient, toMailError } from "./smtp-mail.client.ts";

describe("SMTP mail client errors", () => {
  it("maps a mail server that does not answer in time to PROVIDER_TIMEOUT (504)", () => {
    const error = toMailError(Object.assign(new Error("Connection timeout"), { code: "ETIMEDOUT" }));
    expect(error).toMatchObject({
      code: "PROVIDER_TIMEOUT",
      status: 504,
      message: "No se pudo enviar el correo, por favor intente más tarde",
    });
  });

  it("maps a refused connection to PROVIDER_UNAVAILABLE (502) through the real client", async () => {
    // Port 1 on loopback: nothing listens there, so the connection is refused at once.
    const client = createSmtpMailClient({ SMTP_HOST: "127.0.0.1", SMTP_PORT: 1, SMTP_SECURE: false, MAIL_FROM: "a@b.cl" });
    await expect(client.send({ to: "x@y.cl", subject: "s", text: "t", html: "<p>t</p>" })).rejects.toMatchObject({
      code: "PROVIDER_UNAVAILABLE",
      status: 502,
    });
    client.close();
  });
});

describe("SMTP mail client against a server that stops answering", () => {
  it("gives up on a server that greets and then goes silent, instead of holding the mail queue's worker for minutes", async () => {
    // nodemailer waits 10 minutes on a silent socket by default; the queue delivers one message at a time per instance.
    const sockets: Socket[] = [];
    const server = createServer((socket) => {
      sockets.push(socket);
      socket.write("220 mudo ESMTP\r\n"); // then never answers EHLO
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as AddressInfo).port;
    const client = createSmtpMailClient(
      { SMTP_HOST: "127.0.0.1", SMTP_PORT: port, SMTP_SECURE: false, MAIL_FROM: "a@b.cl" },
      { silenceMs: 300 },
    );
    try {
      const started = Date.now();
      await expect(client.send({ to: "x@y.cl", subject: "s", text: "t", html: "<p>t</p>" })).rejects.toMatchObject({
        code: "PROVIDER_TIMEOUT",
      });
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      client.close();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("SMTP mail client transport security", () => {
  it("never sends in clear text to a relay that offers STARTTLS, even without a login", async () => {
    const inClear: string[] = [];
    // smtp-server offers STARTTLS with its own self-signed certificate, which the client must not trust.
    const server = new SMTPServer({
      authOptional: true,
      logger: false,
      onData(stream, session, callback) {
        if (!session.secure) inClear.push(session.envelope.rcptTo.map((rcpt) => rcpt.address).join(","));
        stream.resume();
        stream.on("end", () => callback());
      },
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.server.address() as AddressInfo).port;
    const client = createSmtpMailClient({ SMTP_HOST: "127.0.0.1", SMTP_PORT: port, SMTP_SECURE: false, MAIL_FROM: "a@b.cl" });
    try {
      await client.send({ to: "paciente@correo.cl", subject: "s", text: "t", html: "<p>t</p>" }).catch(() => undefined);
      expect(inClear).toEqual([]);
    } finally {
      client.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
