import Fastify from "fastify";
import { openDatabase } from "../../server/db/database.ts";
import { userSearchWhere } from "../../server/db/users.repository.ts";
import { billListRows } from "../../server/features/bills/bills-reads.repository.ts";
import { userListRows } from "../../server/features/users/users-reads.repository.ts";
import type { StaffActor } from "../../server/lib/access.ts";
import type { SessionUser } from "../../server/http/authenticate.ts";

// The floor of a database read (issue 26): a bare Fastify route that runs the same SQL the portal's page runs, through
// the portal's own repository functions, on a database opened as the portal opens it (the same pool), and answers its
// rows as JSON. No token, no session, no audit, no cache, no schema: what any implementation of that read must at
// least cost on this machine. The bench measures it beside the portal's route, so "the portal's route / its floor" is
// the portal's own share.

const db = await openDatabase({ kind: "postgres", url: process.env.DATABASE_URL! });
const deps = { sql: db.executeSql };

// The bench's admin sees every clinic; the patient's id is looked up once, as the portal keeps it in its session.
const admin: StaffActor = { user: { id: 0, roleType: 0 } as SessionUser, isAdmin: true, clinics: [] };
const patientRut = process.env.FLOOR_PATIENT_RUT ?? "12345678-5";
const patient = await db.prisma.user.findUnique({ where: { rut: patientRut }, select: { id: true } });
if (!patient) throw new Error(`La base no tiene al paciente ${patientRut}`);

// The portal keeps each list's total between pages and hands it to the page query (it picks the search plan): the same
// total, counted once here by the portal's own query.
const userSearch = "gonzález";
const userSearchTotal = await db.prisma.user.count({ where: userSearchWhere(userSearch) });

const page = { skip: 0, take: 10 };
const newestBills = { orderBy: "createAccountIdDate", direction: "DESC", ...page } as const;
const app = Fastify({ logger: false });
app.get("/floor/users-list", () => userListRows(deps, { actor: admin, roleType: undefined, param: undefined, ...page }));
app.get("/floor/users-search", () =>
  userListRows(deps, { actor: admin, roleType: undefined, param: userSearch, ...page }, userSearchTotal),
);
app.get("/floor/bills-mine", () => billListRows(deps, { clinics: undefined, userId: patient.id, param: undefined, ...newestBills }));
app.get("/floor/bills-search", () => billListRows(deps, { clinics: undefined, userId: undefined, param: "gonz", ...newestBills }));
app.get("/floor/ready", async () => ({ status: "ok" }));
app.addHook("onClose", () => db.close());
await app.listen({ host: "127.0.0.1", port: Number(process.env.PORT ?? 0) });
console.log(`listo ${(app.server.address() as { port: number }).port}`);
