import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { servePglite, type PgliteServer } from "./pglite-server.ts";

// The owner's own queries (PGlite API, as the portal's Prisma client uses it) and clients on the socket share one
// PGlite session: their units of work must never mix. (With pglite-socket's own PGLiteSocketServer queue, the second
// test fails: the client's INSERT runs inside the owner's open transaction and its rollback takes the client's row too.)

let pglite: PGlite;
let server: PgliteServer;
const clients: pg.Client[] = [];

async function connect() {
  const client = new pg.Client({ connectionString: `postgresql://postgres@127.0.0.1:${server.port}/postgres` });
  await client.connect();
  clients.push(client);
  return client;
}

/** Lets queued socket work run if it could (the assertions do not depend on how long this is). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 150));

beforeAll(async () => {
  pglite = await PGlite.create();
  await pglite.exec("CREATE TABLE note (id serial PRIMARY KEY, author text NOT NULL)");
  server = await servePglite(pglite, { host: "127.0.0.1", port: 0 });
}, 60_000);
afterAll(async () => {
  await Promise.all(clients.map((client) => client.end().catch(() => {})));
  await server.stop();
  await pglite.close();
});
beforeEach(async () => {
  await pglite.exec("TRUNCATE note");
});

const count = async (author: string) =>
  (await pglite.query<{ n: number }>("SELECT count(*)::int AS n FROM note WHERE author = $1", [author])).rows[0]!.n;

describe("embedded database served on loopback", { timeout: 20_000 }, () => {
  it("answers a client on the PostgreSQL protocol with the owner's data", async () => {
    await pglite.query("INSERT INTO note (author) VALUES ('owner')");
    const client = await connect();
    const { rows } = await client.query("SELECT author FROM note");
    expect(rows).toEqual([{ author: "owner" }]);
  });

  it("keeps a client's statement out of the owner's transaction: the owner's rollback does not undo it", async () => {
    const client = await connect();
    let clientInsert: Promise<unknown> | undefined;
    await pglite.transaction(async (tx) => {
      await tx.query("INSERT INTO note (author) VALUES ('owner-rolled-back')");
      clientInsert = client.query("INSERT INTO note (author) VALUES ('client')");
      await settle();
      await tx.rollback();
    });
    await clientInsert;
    expect(await count("client")).toBe(1);
    expect(await count("owner-rolled-back")).toBe(0);
  });

  it("keeps the owner's queries out of a client's transaction: the client's rollback does not undo them", async () => {
    const client = await connect();
    await client.query("BEGIN");
    await client.query("INSERT INTO note (author) VALUES ('client-rolled-back')");
    const ownerInsert = pglite.query("INSERT INTO note (author) VALUES ('owner')");
    await settle();
    await client.query("ROLLBACK");
    await ownerInsert;
    expect(await count("owner")).toBe(1);
    expect(await count("client-rolled-back")).toBe(0);
  });

  it("never mixes the extended-protocol messages of two clients (each gets the answer to its own statement)", async () => {
    const [a, b] = await Promise.all([connect(), connect()]);
    const run = async (client: pg.Client, base: number) => {
      const answers: number[] = [];
      for (let i = 0; i < 40; i++) answers.push((await client.query("SELECT $1::int + $2::int AS v", [base, i])).rows[0].v as number);
      return answers;
    };
    const [fromA, fromB] = await Promise.all([run(a, 1000), run(b, 5000)]);
    expect(fromA).toEqual(Array.from({ length: 40 }, (_, i) => 1000 + i));
    expect(fromB).toEqual(Array.from({ length: 40 }, (_, i) => 5000 + i));
  });

  it("rolls back the open transaction of a client that disconnects, and lets the owner go on", async () => {
    const client = await connect();
    await client.query("BEGIN");
    await client.query("INSERT INTO note (author) VALUES ('client-gone')");
    await client.end();
    await pglite.query("INSERT INTO note (author) VALUES ('owner')");
    expect(await count("client-gone")).toBe(0);
    expect(await count("owner")).toBe(1);
    expect(pglite.isInTransaction()).toBe(false);
  });
});
