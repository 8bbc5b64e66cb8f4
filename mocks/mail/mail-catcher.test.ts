import Fastify, { type FastifyInstance } from "fastify";
import nodemailer, { type Transporter } from "nodemailer";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { mailRoutes, MailStore, startMailCatcher, type MailCatcher, type MailMessageJson } from "./mail-catcher.ts";

let catcher: MailCatcher;
let app: FastifyInstance;
let transport: Transporter;

beforeAll(async () => {
  catcher = await startMailCatcher({ port: 0 });
  app = Fastify();
  await app.register(mailRoutes, { store: catcher.store });
  transport = nodemailer.createTransport({ host: catcher.host, port: catcher.port, secure: false });
});

afterAll(async () => {
  transport.close();
  await app.close();
  await catcher.close();
});

beforeEach(async () => {
  await app.inject({ method: "DELETE", url: "/mail/messages" });
});

async function listMessages(query = ""): Promise<MailMessageJson[]> {
  const response = await app.inject({ method: "GET", url: `/mail/messages${query}` });
  expect(response.statusCode).toBe(200);
  return response.json<MailMessageJson[]>();
}

function sendMail(to: string, subject: string, extra: { text?: string; html?: string } = {}) {
  return transport.sendMail({
    from: "Portal Pacientes <no-responder@portal.example.cl>",
    to,
    subject,
    text: extra.text ?? `Texto de ${subject}`,
    html: extra.html ?? `<p>HTML de ${subject}</p>`,
  });
}

describe("mail catcher", () => {
  it("keeps a mail sent over SMTP and returns it through the JSON API", async () => {
    await sendMail("ana@example.cl", "Bienvenida a Portal Pacientes", {
      text: "Hola Ana, active su cuenta.",
      html: '<p>Hola Ana, <a href="https://portal.example.cl/activar">active su cuenta</a>.</p>',
    });

    const [message, ...rest] = await listMessages();

    expect(rest).toHaveLength(0);
    expect(message).toMatchObject({
      from: "no-responder@portal.example.cl",
      to: "ana@example.cl",
      subject: "Bienvenida a Portal Pacientes",
    });
    expect(message?.text.trim()).toBe("Hola Ana, active su cuenta.");
    expect(message?.html.trim()).toBe('<p>Hola Ana, <a href="https://portal.example.cl/activar">active su cuenta</a>.</p>');
    expect(message?.id).toEqual(expect.any(String));
    expect(new Date(message?.date ?? "").toISOString()).toBe(message?.date);
  });

  it("lists messages newest first", async () => {
    await sendMail("ana@example.cl", "Primero");
    await sendMail("ana@example.cl", "Segundo");

    const subjects = (await listMessages()).map((message) => message.subject);

    expect(subjects).toEqual(["Segundo", "Primero"]);
  });

  it("joins every recipient of a mail with commas", async () => {
    await transport.sendMail({ from: "a@example.cl", to: "ana@example.cl", cc: "luis@example.cl", subject: "Copia", text: "x" });

    const [message] = await listMessages();

    expect(message?.to).toBe("ana@example.cl, luis@example.cl");
  });

  it("filters messages by recipient ignoring case", async () => {
    await sendMail("ana@example.cl", "Para Ana");
    await sendMail("luis@example.cl", "Para Luis");

    const forLuis = await listMessages("?to=LUIS@Example.cl");

    expect(forLuis.map((message) => message.subject)).toEqual(["Para Luis"]);
    expect(await listMessages("?to=nadie@example.cl")).toEqual([]);
  });

  it("clears every message on DELETE", async () => {
    await sendMail("ana@example.cl", "Para borrar");

    const response = await app.inject({ method: "DELETE", url: "/mail/messages" });

    expect(response.statusCode).toBe(204);
    expect(await listMessages()).toEqual([]);
  });

  it("lists received mails on an HTML page with their content escaped", async () => {
    await sendMail("ana@example.cl", "<script>alert(1)</script> Hora confirmada");

    const response = await app.inject({ method: "GET", url: "/mail" });

    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/html");
    expect(response.body).toContain("Correos recibidos");
    expect(response.body).toContain("ana@example.cl");
    expect(response.body).toContain("&lt;script&gt;alert(1)&lt;/script&gt; Hora confirmada");
    expect(response.body).not.toContain("<script>alert(1)</script>");
  });

  it("shows one mail with its HTML in a sandboxed iframe and its links clickable", async () => {
    await sendMail("ana@example.cl", "Restablecer contraseña", {
      text: "Ingrese a https://portal.example.cl/restablecer?token=abc para continuar.",
      html: '<p>Use <a href="https://portal.example.cl/restablecer?token=abc&amp;x=1">este enlace</a></p>',
    });
    const [message] = await listMessages();

    const response = await app.inject({ method: "GET", url: `/mail/${message?.id}` });

    expect(response.statusCode).toBe(200);
    expect(response.body).toContain("Restablecer contraseña");
    expect(response.body).toMatch(/<iframe[^>]*sandbox="[^"]*allow-top-navigation-by-user-activation/);
    expect(response.body).toContain(
      'srcdoc="&lt;base target=&quot;_top&quot;&gt;&lt;p&gt;Use &lt;a href=&quot;https://portal.example.cl/restablecer?token=abc&amp;amp;x=1&quot;&gt;',
    );
    expect(response.body).toContain('<a href="https://portal.example.cl/restablecer?token=abc" rel="noreferrer">');
  });

  it("answers 404 for an unknown mail", async () => {
    const response = await app.inject({ method: "GET", url: "/mail/no-existe" });

    expect(response.statusCode).toBe(404);
    expect(response.body).toContain("Correo no encontrado");
  });
});

describe("mail store", () => {
  it("keeps only the most recent messages once full", () => {
    const store = new MailStore(2);
    for (const subject of ["uno", "dos", "tres"]) {
      store.add({ from: "a@example.cl", fromName: "", recipients: ["b@example.cl"], subject, text: "", html: "", receivedAt: new Date() });
    }

    expect(store.list().map((mail) => mail.subject)).toEqual(["tres", "dos"]);
  });
});
