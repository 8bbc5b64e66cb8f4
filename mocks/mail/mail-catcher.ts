import type { AddressInfo } from "node:net";
import type { FastifyPluginAsync } from "fastify";
import PostalMime, { type Address, type Mailbox } from "postal-mime";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import { z } from "zod";
import { htmlContentType } from "../html.ts";
import { renderMailDetailPage, renderMailListPage, renderMailNotFoundPage } from "./mail-pages.ts";
import { MailStore, toMessageJson } from "./mail-store.ts";

export { MailStore, type MailMessageJson } from "./mail-store.ts";

export interface MailCatcherOptions {
  host?: string;
  /** 0 picks a free port; the chosen one is reported in `MailCatcher.port`. */
  port?: number;
  store?: MailStore;
}

export interface MailCatcher {
  readonly store: MailStore;
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

const maxMessageBytes = 25 * 1024 * 1024;

function firstMailbox(address: Address | undefined): Mailbox | undefined {
  if (!address) return undefined;
  return address.address !== undefined ? address : address.group[0];
}

function readStream(stream: SMTPServerDataStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("error", reject);
    stream.on("end", () => resolve(Buffer.concat(chunks)));
  });
}

async function catchMessage(stream: SMTPServerDataStream, session: SMTPServerSession, store: MailStore): Promise<void> {
  const raw = await readStream(stream);
  if (stream.sizeExceeded) {
    throw Object.assign(new Error("Mensaje demasiado grande"), { responseCode: 552 });
  }
  const email = await PostalMime.parse(raw);
  const sender = firstMailbox(email.from);
  const envelopeSender = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
  const recipients = [...new Set(session.envelope.rcptTo.map((recipient) => recipient.address))];
  store.add({
    from: sender?.address ?? envelopeSender,
    fromName: sender?.name ?? "",
    recipients,
    subject: email.subject ?? "",
    text: email.text ?? "",
    html: email.html ?? "",
    receivedAt: new Date(),
  });
}

export async function startMailCatcher(options: MailCatcherOptions = {}): Promise<MailCatcher> {
  const host = options.host ?? "127.0.0.1";
  const store = options.store ?? new MailStore();
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: true,
    // Clients configured with credentials for a real provider must still be able to deliver here.
    allowInsecureAuth: true,
    onAuth: (auth, _session, callback) => callback(null, { user: auth.username ?? "anonymous" }),
    size: maxMessageBytes,
    logger: false,
    disableReverseLookup: true,
    closeTimeout: 1_000,
    onData(stream, session, callback) {
      catchMessage(stream, session, store).then(
        () => callback(),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 2525, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  // Without a listener, a client dropping its connection would crash the process.
  server.on("error", (error: Error) => console.error(`[mail-catcher] ${error.message}`));

  const { port } = server.server.address() as AddressInfo;
  return {
    store,
    host,
    port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface MailRoutesOptions {
  store: MailStore;
}

const listQuerySchema = z.object({ to: z.string().optional() });
const detailParamsSchema = z.object({ id: z.string() });

/** HTTP side of the catcher: JSON API for tests and HTML pages for people. */
export const mailRoutes: FastifyPluginAsync<MailRoutesOptions> = async (app, { store }) => {
  app.get("/mail/messages", async (request, reply) => {
    const query = listQuerySchema.safeParse(request.query);
    if (!query.success) {
      return reply.code(400).send({ error: "Parámetro 'to' inválido" });
    }
    return store.list(query.data).map(toMessageJson);
  });

  app.delete("/mail/messages", async (_request, reply) => {
    store.clear();
    return reply.code(204).send();
  });

  app.get("/mail", async (_request, reply) => {
    return reply.type(htmlContentType).send(renderMailListPage(store.list()));
  });

  app.get("/mail/:id", async (request, reply) => {
    const { id } = detailParamsSchema.parse(request.params);
    const mail = store.get(id);
    if (!mail) return reply.code(404).type(htmlContentType).send(renderMailNotFoundPage());
    return reply.type(htmlContentType).send(renderMailDetailPage(mail));
  });
};
