import type pg from "pg";

// The warm-up's transaction (ops/warm-up.ts, issue 46 §4). While it is open, every query of the process's pool runs on
// one connection inside a transaction that is rolled back at the end: the hot routes can then run with a 200 (a
// patient, a session, a bill with its PDF, a staff member) and the database keeps nothing of it. Three locks, each
// enough on its own to keep anything from being committed:
//  1. the transaction cannot commit: it holds a broken deferred foreign key, checked only at COMMIT, which then fails
//     and rolls everything back;
//  2. a transaction the code opens inside it becomes a savepoint (BEGIN → SAVEPOINT, COMMIT → RELEASE, ROLLBACK →
//     ROLLBACK TO), and any other statement that could end a transaction is refused before it is sent;
//  3. nothing is sent once the connection says it is no longer inside a transaction.
// Statements are sent one at a time, so that the third lock reads the state the previous statement left.

export interface RollbackOnlyTransaction {
  /** Runs `work` and undoes what it wrote (a savepoint rolled back), also when it failed or left the transaction failed. */
  undoing<T>(work: () => Promise<T>): Promise<T>;
  /** Statements sent through the pool while the transaction was open, and those refused (lock 2 or 3). */
  readonly counts: { sent: number; refused: number };
  /** Gives the pool back its own connections and rolls the transaction back. Call it once no work is in flight. */
  end(): Promise<void>;
}

export class TransactionControlRefused extends Error {}

/** Statements that could end the warm-up's transaction, at the start of any statement of a script. */
const ENDS_A_TRANSACTION =
  /(^|;)\s*(begin|start\s+transaction|commit|end|rollback|abort|prepare\s+transaction|commit\s+prepared|set\s+session\s+characteristics)\b/i;
/** Savepoint statements, which act inside the transaction only (Prisma's nested transactions send them). */
const SAVEPOINT_STATEMENT = /^(savepoint|release(\s+savepoint)?|rollback\s+to(\s+savepoint)?)\s+("[^";]+"|\w+);?$/i;

type QueryArgument = string | pg.QueryConfig;
type QueryResult = pg.QueryResult<Record<string, unknown>>;

const EMPTY_RESULT = { command: "SET", rowCount: null, rows: [], fields: [], oid: 0 } as unknown as QueryResult;

export async function openRollbackOnlyTransaction(pool: pg.Pool): Promise<RollbackOnlyTransaction> {
  const client = await pool.connect();
  // Checked out, the connection has no listener of its own: an error it reports (PostgreSQL ended it) is met when the
  // next statement fails, and must not crash the process meanwhile.
  const ignore = () => {};
  client.on("error", ignore);
  const ownQuery = pool.query;
  const ownConnect = pool.connect;
  let queue: Promise<unknown> = Promise.resolve();
  let ended = false;
  let savepoints = 0;
  const counts = { sent: 0, refused: 0 };

  // Lock 3: the connection reports its transaction status with each ReadyForQuery ("T" inside one, "E" inside a failed
  // one, "I" outside any).
  const insideTransaction = () => {
    const status = (client as unknown as { getTransactionStatus(): string | null }).getTransactionStatus();
    return status === "T" || status === "E";
  };
  // pg settles a statement that failed on its ErrorResponse, before the ReadyForQuery that carries the new status:
  // the next statement waits for it, so that lock 3 never reads the status from before the failure.
  const settled = async () => {
    const state = client as unknown as { readyForQuery: boolean };
    for (let waited = 0; !state.readyForQuery && waited < 5_000; waited++) await new Promise((resolve) => setTimeout(resolve, 1));
  };
  const serially = <T>(send: () => Promise<T>): Promise<T> => {
    const result = queue.then(async () => {
      await settled();
      if (ended || !insideTransaction()) {
        counts.refused++;
        throw new TransactionControlRefused("La transacción de calentamiento ya terminó: la consulta no se envía");
      }
      counts.sent++;
      return send();
    });
    queue = result.catch(() => {});
    return result;
  };
  const refuse = (text: string): Promise<never> => {
    counts.refused++;
    return Promise.reject(
      new TransactionControlRefused(`Sentencia de control de transacciones rechazada durante el calentamiento: ${text.slice(0, 80)}`),
    );
  };
  const routed = (argument: QueryArgument, values?: unknown[]): Promise<QueryResult> => {
    const text = typeof argument === "string" ? argument : argument.text;
    if (ENDS_A_TRANSACTION.test(text) && !SAVEPOINT_STATEMENT.test(text.trim())) return refuse(text);
    return serially(() => client.query(argument as pg.QueryConfig, values));
  };
  // A connection the code checks out (Prisma's interactive transactions, pg's own Pool.query): its transaction is a
  // savepoint of the warm-up's, named for this checkout so that two of them never release each other's.
  const checkout = () => {
    const savepoint = `portal_warm_up_tx_${++savepoints}`;
    const translated = (argument: QueryArgument, values?: unknown[]): Promise<QueryResult> => {
      const text = (typeof argument === "string" ? argument : argument.text).trim().replace(/;$/, "").toUpperCase();
      if (text === "BEGIN" || text === "START TRANSACTION") return serially(() => client.query(`SAVEPOINT ${savepoint}`));
      if (text === "COMMIT" || text === "END") return serially(() => client.query(`RELEASE SAVEPOINT ${savepoint}`));
      if (text === "ROLLBACK" || text === "ABORT")
        return serially(() => client.query(`ROLLBACK TO SAVEPOINT ${savepoint}; RELEASE SAVEPOINT ${savepoint}`)) as Promise<QueryResult>;
      // The isolation level is the warm-up's (READ COMMITTED, PostgreSQL's default and the portal's).
      if (text.startsWith("SET TRANSACTION ISOLATION LEVEL")) return Promise.resolve(EMPTY_RESULT);
      return routed(argument, values);
    };
    const connection = {
      query: translated,
      release: () => {},
      on: () => connection,
      once: () => connection,
      off: () => connection,
      removeListener: () => connection,
    };
    return Promise.resolve(connection as unknown as pg.PoolClient);
  };

  try {
    await client.query("BEGIN");
    // Lock 1: row 1 points at a row 2 that never exists; the check is deferred to COMMIT, which it makes fail.
    await client.query(`
      CREATE TEMPORARY TABLE portal_warm_up_guard (
        id int PRIMARY KEY,
        next int REFERENCES portal_warm_up_guard (id) DEFERRABLE INITIALLY DEFERRED
      ) ON COMMIT DROP;
      INSERT INTO portal_warm_up_guard VALUES (1, 2);
      SET LOCAL idle_in_transaction_session_timeout = '60s';
      SET LOCAL lock_timeout = '2s';
      SET LOCAL statement_timeout = '10s'`);
  } catch (error) {
    client.removeListener("error", ignore);
    client.release(error as Error);
    throw error;
  }
  pool.query = routed as unknown as pg.Pool["query"];
  pool.connect = checkout as unknown as pg.Pool["connect"];

  return {
    counts,
    async undoing(work) {
      const name = `portal_warm_up_step_${++savepoints}`;
      await serially(() => client.query(`SAVEPOINT ${name}`));
      try {
        return await work();
      } finally {
        await serially(() => client.query(`ROLLBACK TO SAVEPOINT ${name}; RELEASE SAVEPOINT ${name}`));
      }
    },
    async end() {
      if (ended) return;
      pool.query = ownQuery;
      pool.connect = ownConnect;
      await queue;
      ended = true;
      try {
        await client.query("ROLLBACK");
        client.release();
      } catch (error) {
        client.release(error as Error); // the connection is closed, and PostgreSQL rolls back what it held
        throw error;
      } finally {
        client.removeListener("error", ignore);
      }
    },
  };
}
