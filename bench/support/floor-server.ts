import Fastify from "fastify";
import pg from "pg";
import { billListRows } from "../../server/features/bills/bills-reads.repository.ts";
import { userListRows } from "../../server/features/users/users-reads.repository.ts";
import type { SessionUser } from "../../server/http/authenticate.ts";
import { userSearchPatterns } from "../../server/db/users.repository.ts";

// The floor of a database read (issue 26): a bare Fastify route that runs the same SQL the portal's page runs, through
// the portal's own repository functions, on a pg pool of the portal's size, and answers its rows as JSON. No token, no
// session, no audit, no cache, no schema: what any implementation of that read must at least cost on this machine. The
// bench measures it beside the portal's route, so "the portal's route / its floor" is the portal's own share.

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, allowExitOnIdle: true });
const deps = { sql: (text: string, values?: unknown[]) => pool.query(text, values) };

// The bench's admin sees every clinic; the patient's id is looked up once, as the portal keeps it in its session.
const admin = { user: { id: 0, roleType: 0 } as SessionUser, isAdmin: true, clinics: [] };
const patientRut = process.env.FLOOR_PATIENT_RUT ?? "12345678-5";
const patient = await pool.query<{ id: number }>(`SELECT id FROM "User" WHERE rut = $1`, [patientRut]);
const patientId = patient.rows[0]?.id;
if (patientId === undefined) throw new Error(`La base no tiene al paciente ${patientRut}`);

// The portal keeps each list's total between pages and hands it to the page query (it picks the search plan): the same
// total, counted once here.
const userSearch = "gonzález";
const [first, second] = userSearchPatterns(userSearch);
const matches = await pool.query<{ n: number }>(
  `SELECT count(*)::int AS n FROM "User" WHERE "searchText" LIKE $1 OR "searchText" LIKE $2`,
  [first, second ?? first],
);

const page = { skip: 0, take: 10 };
const app = Fastify({ logger: false });
app.get("/floor/users-list", () => userListRows(deps, { actor: admin, roleType: undefined, param: undefined, ...page }));
app.get("/floor/users-search", () =>
  userListRows(deps, { actor: admin, roleType: undefined, param: userSearch, ...page }, matches.rows[0]!.n),
);
app.get("/floor/bills-mine", () =>
  billListRows(deps, {
    clinics: undefined,
    userId: patientId,
    param: undefined,
    orderBy: "createAccountIdDate",
    direction: "DESC",
    ...page,
  }),
);
app.get("/floor/bills-search", () =>
  billListRows(deps, { clinics: undefined, userId: undefined, param: "gonz", orderBy: "createAccountIdDate", direction: "DESC", ...page }),
);
app.get("/floor/ready", async () => ({ status: "ok" }));
app.addHook("onClose", () => pool.end());
await app.listen({ host: "127.0.0.1", port: Number(process.env.PORT ?? 0) });
console.log(`listo ${(app.server.address() as { port: number }).port}`);
