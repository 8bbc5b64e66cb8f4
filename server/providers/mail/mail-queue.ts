import { seal, sealingKey, unseal } from "../../lib/sealing.ts";
import type PgBoss from "pg-boss";
import type { JobEngine } from "../../lib/job-engine.ts";
import type { MailMessage, MailProvider } from "./mail.provider.ts";

// The durable outbound mail queue (issue 24, "SMTP caído"). `send` stores the message as a pg-boss job in the portal's
// own database (PostgreSQL, or the embedded PGlite; the process's one job engine, server/lib/job-engine.ts) and returns: the request that asked for the mail succeeds while
// SMTP is down. A worker on every instance delivers each job through the SMTP client, retrying every
// MAIL_RETRY_SECONDS until SMTP returns. pg-boss hands a job to one worker at a time (SKIP LOCKED), so two instances
// never send the same job; a job is completed right after SMTP accepts it. The only window for a second copy is a crash
// between SMTP's acceptance and that completion: the retry then carries the same Message-ID, which receivers use to
// discard duplicates.
//
// The bodies carry temporary passwords and reset links, which the database otherwise keeps only hashed: they are
// sealed (AES-256-GCM, key derived from JWT_SECRET, shared by every instance) before they reach the job table. The
// recipient and subject stay readable, for the admins' view of stuck mail.

export const MAIL_QUEUE_NAME = "portal-mail";

export interface MailQueueOptions {
  /** The process's job engine; the queue registers its delivery job there. */
  engine: JobEngine;
  /** Delivers one message (the SMTP client); throws when SMTP refuses or does not answer. */
  transport: MailProvider;
  /** Key material for sealing bodies (JWT_SECRET). */
  secret: string;
  retrySeconds: number;
  /** How long the worker waits between polls when the queue is empty (a send on this instance wakes it at once). */
  pollSeconds?: number;
  log: { warn(details: object, message: string): void };
}

/** A message that has waited longer than the admins' threshold: never sent yet (or given up on). */
export interface StuckMail {
  id: string;
  to: string;
  subject: string;
  /** pg-boss state: created / retry (waiting for the next attempt), active (being sent), failed (out of retries). */
  state: string;
  attempts: number;
  createdAt: string;
  lastError: string | null;
}

export interface MailQueue extends MailProvider {
  /** Mail queued more than `minutes` ago and not delivered. */
  stuck(minutes: number): Promise<StuckMail[]>;
  /** Messages not yet delivered (any age). */
  pending(): Promise<number>;
}

interface QueuedMail {
  to: string;
  subject: string;
  /** base64 of iv(12) + tag(16) + ciphertext of JSON {text, html}. */
  sealed: string;
}

export function sealBody(key: Buffer, body: { text: string; html: string }): string {
  return seal(key, JSON.stringify(body));
}

export function openBody(key: Buffer, sealed: string): { text: string; html: string } {
  return JSON.parse(unseal(key, sealed)) as { text: string; html: string };
}

/** The queue in front of `transport`; callers keep using it as the MailProvider they had. */
export function createMailQueue(options: MailQueueOptions): MailQueue {
  const key = sealingKey(options.secret, "mail-queue-v1");
  const { engine } = options;
  engine.registerJob<QueuedMail>(MAIL_QUEUE_NAME, {
    queue: {
      retryLimit: Math.ceil((14 * 24 * 3600) / options.retrySeconds),
      retryDelay: options.retrySeconds,
      retryBackoff: false,
      // A delivery that hangs this long is handed to another attempt (the SMTP client gives up sooner: 10 s to
      // connect, 20 s of silence).
      expireInSeconds: 120,
      retentionDays: 14,
    },
    pollSeconds: options.pollSeconds,
    async handler(job: PgBoss.Job<QueuedMail>) {
      const body = openBody(key, job.data.sealed);
      try {
        await options.transport.send({ to: job.data.to, subject: job.data.subject, ...body, messageId: `<${job.id}@portal-pacientes>` });
      } catch (error) {
        options.log.warn({ err: error, jobId: job.id }, "mail queue: SMTP refused, retrying later");
        throw error;
      }
    },
  });

  return {
    async send(message: MailMessage) {
      // A person without an e-mail (staff may create one, a patient may never have given one) gets no mail: queued,
      // it would be refused by SMTP on every retry for the queue's 14 days and show as stuck to the admins.
      if (!message.to.trim()) {
        options.log.warn({ subject: message.subject }, "mail queue: no recipient address, mail not queued");
        return;
      }
      const data: QueuedMail = { to: message.to, subject: message.subject, sealed: sealBody(key, message) };
      await engine.send(MAIL_QUEUE_NAME, data);
    },
    close() {
      options.transport.close();
    },
    async stuck(minutes) {
      const { rows } = await engine.sql(
        `SELECT id::text, data->>'to' AS "to", data->>'subject' AS subject, state::text, retry_count AS attempts,
                created_on AS "createdAt", output::text AS "lastError"
           FROM pgboss.job
          WHERE name = $1 AND state IN ('created', 'retry', 'active', 'failed')
            AND created_on < now() - make_interval(mins => $2::int)
          ORDER BY created_on LIMIT 200`,
        [MAIL_QUEUE_NAME, minutes],
      );
      return (rows as Array<Omit<StuckMail, "createdAt"> & { createdAt: Date | string }>).map((row) => ({
        ...row,
        attempts: Number(row.attempts),
        createdAt: new Date(row.createdAt).toISOString(),
      }));
    },
    async pending() {
      const { rows } = await engine.sql(
        `SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state IN ('created', 'retry', 'active')`,
        [MAIL_QUEUE_NAME],
      );
      return Number((rows[0] as { n: number }).n);
    },
  };
}
