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
