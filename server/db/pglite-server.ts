import net from "node:net";
import type { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketHandler, type PGLiteSocketHandlerOptions } from "@electric-sql/pglite-socket";

// Serves the owner's PGlite over the PostgreSQL wire protocol on loopback, so operator commands, psql and GUIs reach
// the same data while the portal runs.
//
// PGlite is one backend session. @electric-sql/pglite-socket frames the protocol (startup, SSL refusal, messages),
// but its own queue schedules single *messages*: between a client's Parse and its Sync (one unnamed statement) another
// client's Parse can run, and its messages hold only PGlite's query lock, so they can land inside a transaction of the
// portal's own Prisma client (PGlite.transaction holds the transaction lock for the whole callback). So the handlers
// here get a queue of ours: a client runs a whole unit of work (from its first message until PGlite answers
// ReadyForQuery "idle", i.e. after Sync/Query outside a transaction block) while holding PGlite's transaction lock, the
// same lock every query and transaction of the portal takes. Units of different clients and of the portal never mix.
// A client that disconnects in the middle has its transaction rolled back and the lock released. After each unit the
// session's settings go back to their defaults (RESET ALL), so a client's SET never reaches the portal.

const syncMessage = new Uint8Array([0x53, 0, 0, 0, 4]);

function simpleQuery(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`, "utf8");
  const message = Buffer.alloc(5 + text.length);
  message.write("Q", 0, "ascii");
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return message;
}

const resetAll = simpleQuery("RESET ALL");

/** ReadyForQuery with status "I" is the last message PGlite answers when a client is back outside any transaction. */
function endsIdle(tail: Uint8Array): boolean {
  return tail.length === 6 && tail[0] === 0x5a && tail[1] === 0 && tail[2] === 0 && tail[3] === 0 && tail[4] === 5 && tail[5] === 0x49;
}

function lastBytes(previous: Uint8Array, data: Uint8Array, count: number): Uint8Array {
  if (data.length >= count) return data.slice(data.length - count);
  const joined = new Uint8Array(previous.length + data.length);
  joined.set(previous);
  joined.set(data, previous.length);
  return joined.slice(Math.max(0, joined.length - count));
}

interface Session {
  /** Work of this client, in order. */
  chain: Promise<unknown>;
  /** Set while the client holds PGlite's transaction lock. */
  release: (() => void) | null;
  closed: boolean;
}

/** The queue given to pglite-socket's handlers (same methods as its own QueryQueueManager). */
class UnitOfWorkQueue {
  private readonly sessions = new Map<number, Session>();

  constructor(private readonly pglite: PGlite) {}

  private session(handlerId: number): Session {
    let session = this.sessions.get(handlerId);
    if (!session) {
      session = { chain: Promise.resolve(), release: null, closed: false };
      this.sessions.set(handlerId, session);
    }
    return session;
  }

  private inOrder<T>(session: Session, work: () => Promise<T>): Promise<T> {
    const result = session.chain.then(work);
    session.chain = result.catch(() => {});
    return result;
  }

  private acquire(): Promise<() => void> {
    return new Promise((acquired) => {
      void this.pglite._runExclusiveTransaction(() => new Promise<void>((release) => acquired(release)));
    });
  }

  enqueue(handlerId: number, message: Uint8Array, onData: (data: Uint8Array) => void): Promise<number> {
    const session = this.session(handlerId);
    return this.inOrder(session, async () => {
      if (session.closed) throw new Error("Conexión cerrada");
      session.release ??= await this.acquire();
      if (session.closed) {
        await this.endUnit(session);
        throw new Error("Conexión cerrada");
      }
      let tail: Uint8Array = new Uint8Array(0);
      let bytes = 0;
      try {
        await this.pglite.runExclusive(() =>
          this.pglite.execProtocolRawStream(message, {
            onRawData: (data) => {
              bytes += data.length;
              tail = lastBytes(tail, data, 6);
              onData(data);
            },
          }),
        );
      } catch (error) {
        await this.endUnit(session);
        throw error;
      }
      if (endsIdle(tail)) {
        const release = session.release;
        session.release = null;
        try {
          await this.resetSettings();
        } finally {
          release();
        }
      }
      return bytes;
    });
  }

  /** Ends a unit cut short: closes a half-sent extended query, rolls back an open transaction, frees the lock. */
  private async endUnit(session: Session) {
    const release = session.release;
    if (!release) return;
    session.release = null;
    try {
      await this.pglite.runExclusive(async () => {
        await this.pglite.execProtocolRaw(syncMessage);
        if (this.pglite.isInTransaction()) await this.pglite.execProtocolRaw(simpleQuery("ROLLBACK"));
      });
      await this.resetSettings();
    } finally {
      release();
    }
  }

  /**
   * The session's settings back to their defaults once a client's unit is over: its SETs (search_path, time zone…;
   * pg_dump empties search_path) would otherwise hold for the portal and every other client of this one session.
   * For a client, a setting therefore lasts one unit of work (one statement, or one transaction).
   */
  private resetSettings(): Promise<unknown> {
    return this.pglite.runExclusive(() => this.pglite.execProtocolRaw(resetAll));
  }

  clearQueueForHandler(handlerId: number) {
    const session = this.sessions.get(handlerId);
    if (session) session.closed = true;
  }

  async clearTransactionIfNeeded(handlerId: number) {
    const session = this.sessions.get(handlerId);
    if (!session) return;
    session.closed = true;
    await this.inOrder(session, () => this.endUnit(session));
    this.sessions.delete(handlerId);
  }

  getQueueLength() {
    return 0;
  }

  /** Waits until every client's work has finished. */
  async drain() {
    await Promise.all([...this.sessions.values()].map((session) => session.chain));
  }
}

export interface PgliteServer {
  host: string;
  port: number;
  /** Stops accepting connections; waits up to `waitForClientsMs` for connected clients to leave, then closes the rest. */
  stop(options?: { waitForClientsMs?: number }): Promise<void>;
}

function listen(server: net.Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

/** Serves `pglite` on host:port; when that port is taken, on a free one (the lock tells clients which). */
export async function servePglite(pglite: PGlite, options: { host: string; port: number }): Promise<PgliteServer> {
  const queue = new UnitOfWorkQueue(pglite);
  const handlers = new Set<PGLiteSocketHandler>();
  const server = net.createServer((socket) => {
    const handler = new PGLiteSocketHandler({
      queryQueue: queue as unknown as PGLiteSocketHandlerOptions["queryQueue"],
      closeOnDetach: true,
    });
    handlers.add(handler);
    const forget = () => handlers.delete(handler);
    handler.addEventListener("close", forget);
    handler.addEventListener("error", forget);
    socket.on("error", () => {});
    void handler.attach(socket);
  });
  let port: number;
  try {
    port = await listen(server, options.host, options.port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EADDRINUSE" || options.port === 0) throw error;
    port = await listen(server, options.host, 0);
    console.warn(`El puerto ${options.port} está ocupado: la base de datos embebida se sirve en ${options.host}:${port}.`);
  }
  const closed = new Promise<void>((resolve) => server.on("close", () => resolve()));
  return {
    host: options.host,
    port,
    async stop({ waitForClientsMs = 0 } = {}) {
      server.close();
      const deadline = Date.now() + waitForClientsMs;
      while (handlers.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
      await Promise.all([...handlers].map((handler) => handler.detach(true)));
      handlers.clear();
      await queue.drain();
      await closed;
    },
  };
}
