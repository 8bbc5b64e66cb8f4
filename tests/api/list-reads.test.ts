import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Prisma } from "../../server/generated/prisma/client.ts";
import { staffSortFields, sortDirections, type StaffSortField, type SortDirection } from "../../server/contract/bills.lists.ts";
import { newUserRow, userDtoSelect, userSearchWhere } from "../../server/db/users.repository.ts";
import { seedClinics } from "../../server/db/seed.ts";
import type { SessionUser } from "../../server/http/authenticate.ts";
import type { PatientSubject } from "../../server/lib/access.ts";
import { clinicScopeFilter, visibleUsersWhere, type StaffActor } from "../../server/lib/access.ts";
import { billScopeWhere, type BillsActor } from "../../server/features/bills/bills-access.ts";
import { billDtoSelect } from "../../server/features/bills/bills.dto.ts";
import { billListRows, billListTotal } from "../../server/features/bills/bills-reads.repository.ts";
import { FEW_MATCHES, userListRows } from "../../server/features/users/users-reads.repository.ts";
import { auditCount, auditRows } from "../../server/features/audit/audit-reads.repository.ts";
import { freshDatabase, type FreshDatabase } from "../helpers/fresh-database.ts";
import { plainRutOf } from "../helpers/fixtures.ts";

// Issue 26: the hot list reads left Prisma's query builder for SQL. Over random users, bills and filters, each SQL read
// answers exactly the rows (and order) of the Prisma query it replaced, which is written out here as it was.

let fresh: FreshDatabase;
let clinicKeys: string[];
const runs = Number(process.env.FC_RUNS ?? 25);
const fcSeed = Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);

beforeAll(async () => {
  fresh = await freshDatabase();
  await seedClinics(fresh.db.prisma);
  clinicKeys = (await fresh.db.prisma.clinic.findMany({ select: { codeClinicStr: true }, orderBy: { code: "asc" } }))
    .map((clinic) => clinic.codeClinicStr)
    .slice(0, 3);
});
afterAll(() => fresh?.drop());

// Few letters, so that searches match often; accents, LIKE wildcards and the escape character among them.
const letter = fc.constantFrom("a", "á", "b", "ñ", "n", "A", "%", "_", "\\", " ", "1", "-");
const text = (maxLength: number) => fc.string({ unit: letter, minLength: 1, maxLength });
const day = fc.date({ min: new Date("1950-01-01T00:00:00Z"), max: new Date("2030-12-31T00:00:00Z"), noInvalidDate: true });

const userArb = fc.record({
  roleType: fc.constantFrom(0, 1, 2, 2),
  firstName: fc.option(text(4), { nil: null, freq: 2 }),
  secondName: fc.option(text(3), { nil: null }),
  lastName: fc.option(text(4), { nil: null }),
  secondLastName: fc.option(text(3), { nil: null }),
  birthDay: fc.option(day, { nil: null }),
  dateTyc: fc.option(day, { nil: null }),
  hasChangedPassword: fc.boolean(),
  clinics: fc.subarray([0, 1, 2]),
});
const billArb = fc.record({
  owner: fc.nat(),
  clinic: fc.constantFrom(0, 1, 2),
  accountCode: fc.stringMatching(/^[0-9]{1,3}$/),
  amount: fc.constantFrom(100, 2_500, 45_990),
  day: fc.constantFrom("2026-01-10T00:00:00Z", "2026-02-10T00:00:00Z", "2026-02-10T13:45:12.345Z"),
  isPaid: fc.boolean(),
});
const dataArb = fc.record({ users: fc.array(userArb, { minLength: 1, maxLength: 14 }), bills: fc.array(billArb, { maxLength: 24 }) });

const actorArb = fc.oneof(
  fc.constant({ isAdmin: true, clinics: [] as number[] }),
  fc.record({ isAdmin: fc.constant(false), clinics: fc.subarray([0, 1, 2]) }),
);
const paramArb = fc.option(fc.oneof(text(3), fc.stringMatching(/^[0-9]{1,2}$/), fc.constantFrom("aa", " a ", "%", "_", "\\", "Á")), {
  nil: undefined,
  freq: 2,
});
const pagingArb = fc.record({ skip: fc.constantFrom(0, 0, 3, 10), take: fc.constantFrom(1, 5, 10, 50) });

interface Stored {
  userIds: number[];
  patientIds: number[];
}

type DataSet = typeof dataArb extends fc.Arbitrary<infer T> ? T : never;

async function store(data: DataSet): Promise<Stored> {
  const prisma = fresh.db.prisma;
  await prisma.bill.deleteMany();
  await prisma.user.deleteMany();
  const userIds: number[] = [];
  const patientIds: number[] = [];
  for (const [index, user] of data.users.entries()) {
    const rut = plainRutOf(20_000_000 + index * 1_013);
    const keys = user.clinics.map((i) => clinicKeys[i]!);
    const row = newUserRow(
      {
        rut,
        email: `${(user.firstName ?? "x").replace(/[^a-z]/gi, "")}${index}@correo.cl`,
        roleType: user.roleType,
        firstName: user.firstName,
        secondName: user.secondName,
        lastName: user.lastName,
        secondLastName: user.secondLastName,
        birthDate: user.birthDay && new Date(user.birthDay.toISOString().slice(0, 10)),
        state: { hasChangedPassword: user.hasChangedPassword, dateTyc: user.dateTyc },
      },
      "sin-contraseña",
    );
    const { id } = await prisma.user.create({
      data: {
        ...row,
        privileges:
          user.roleType === 1 && keys.length ? { create: keys.map((codeClinicStr) => ({ codeClinicStr, idPermission: 1 })) } : undefined,
        patientClinics: user.roleType === 2 && keys.length ? { create: keys.map((codeClinicStr) => ({ codeClinicStr })) } : undefined,
      },
      select: { id: true },
    });
    userIds.push(id);
    if (user.roleType === 2) patientIds.push(id);
  }
  const owners = patientIds.length ? patientIds : userIds;
  await prisma.bill.createMany({
    data: data.bills.map((bill, index) => ({
      accountCode: `${bill.accountCode}${index}`,
      createAccountIdDate: new Date(bill.day),
      amount: bill.amount,
      userId: owners[bill.owner % owners.length]!,
      clinicCode: clinicKeys[bill.clinic]!,
      isPaid: bill.isPaid,
    })),
  });
  return { userIds, patientIds };
}

const staffActor = (actor: { isAdmin: boolean; clinics: number[] }): StaffActor => ({
  user: { id: 1 } as SessionUser,
  isAdmin: actor.isAdmin,
  clinics: actor.clinics.map((i) => clinicKeys[i]!),
});

// The Prisma queries as they were before issue 26.

function prismaUserPage(
  actor: StaffActor,
  roleType: number | undefined,
  param: string | undefined,
  window: { skip: number; take: number },
) {
  const where: Prisma.UserWhereInput = {
    AND: [visibleUsersWhere(actor), roleType === undefined ? {} : { roleType }, userSearchWhere(param)],
  };
  return fresh.db.prisma.user.findMany({ where, select: userDtoSelect, orderBy: { id: "desc" }, ...window });
}

function billOrderBy(field: StaffSortField, direction: SortDirection): Prisma.BillOrderByWithRelationInput[] {
  const dir = direction === "ASC" ? "asc" : "desc";
  const first: Prisma.BillOrderByWithRelationInput =
    field === "rut" ? { user: { rut: dir } } : field === "firstName" ? { user: { firstName: dir } } : { [field]: dir };
  return [first, { id: dir }];
}

function staffSearchWhere(param: string | undefined): Prisma.BillWhereInput {
  const term = (param ?? "").trim();
  if (!term) return {};
  const byPatient: Prisma.BillWhereInput = { user: userSearchWhere(term) };
  return /^\d+$/.test(term) ? { OR: [{ accountCode: { startsWith: term } }, byPatient] } : byPatient;
}

function prismaBillPage(
  where: Prisma.BillWhereInput,
  field: StaffSortField,
  direction: SortDirection,
  window: { skip: number; take: number },
) {
  return fresh.db.prisma.bill.findMany({ where, select: billDtoSelect, orderBy: billOrderBy(field, direction), ...window });
}

// The patient's first name (nullable: NULLS FIRST when descending) twice as often as the other sorts.
const sortArb = fc.record({
  orderBy: fc.constantFrom<StaffSortField>(...staffSortFields, "firstName"),
  direction: fc.constantFrom(...sortDirections),
});
const deps = () => ({ sql: fresh.db.executeSql });

describe("the hot list reads in SQL answer what their Prisma queries answered", () => {
  it("staff user list: visible users, role type, search term, newest first, paged", async () => {
    const filterArb = fc.record({
      actor: actorArb,
      roleType: fc.option(fc.constantFrom(0, 1, 2), { nil: undefined }),
      param: paramArb,
      window: pagingArb,
    });
    await fc.assert(
      fc.asyncProperty(dataArb, fc.array(filterArb, { minLength: 4, maxLength: 8 }), async (data, filters) => {
        await store(data);
        for (const { actor, roleType, param, window } of filters) {
          const staff = staffActor(actor);
          const expected = await prismaUserPage(staff, roleType, param, window);
          // Whichever way the page is searched (the total decides, users-reads.repository.ts), the same rows.
          for (const matches of [undefined, 0, FEW_MATCHES + 1])
            expect(await userListRows(deps(), { actor: staff, roleType, param, ...window }, matches)).toEqual(expected);
        }
      }),
      { numRuns: runs, seed: fcSeed },
    );
  });

  it("staff bill search: the actor's clinics, account code or patient search, every allowed sort, paged, and its total", async () => {
    const filterArb = fc.record({ actor: actorArb, param: paramArb, sort: sortArb, window: pagingArb });
    await fc.assert(
      fc.asyncProperty(dataArb, fc.array(filterArb, { minLength: 4, maxLength: 8 }), async (data, filters) => {
        await store(data);
        for (const { actor, param, sort, window } of filters) {
          const billsActor: BillsActor = { kind: "staff", user: { id: 1 } as SessionUser, staff: staffActor(actor) };
          const where: Prisma.BillWhereInput = { AND: [billScopeWhere(billsActor), staffSearchWhere(param)] };
          const expected = await prismaBillPage(where, sort.orderBy, sort.direction, window);
          const clinics = clinicScopeFilter(billsActor.staff)?.in;
          expect(await billListRows(deps(), { clinics, userId: undefined, param, ...sort, ...window })).toEqual(expected);
          expect(await billListTotal(deps(), { clinics, userId: undefined, param })).toBe(await fresh.db.prisma.bill.count({ where }));
        }
      }),
      { numRuns: runs, seed: fcSeed },
    );
  });

  it("one patient's bills, as the patient and as staff of some clinics, every allowed sort, paged, and their total", async () => {
    const filterArb = fc.record({ owner: fc.nat(), asPatient: fc.boolean(), actor: actorArb, sort: sortArb, window: pagingArb });
    await fc.assert(
      fc.asyncProperty(dataArb, fc.array(filterArb, { minLength: 4, maxLength: 8 }), async (data, filters) => {
        const { userIds } = await store(data);
        for (const { owner, asPatient, actor, sort, window } of filters) {
          const userId = userIds[owner % userIds.length]!;
          const billsActor: BillsActor = asPatient
            ? { kind: "patient", user: { id: userId } as SessionUser, patient: { id: userId } as PatientSubject }
            : { kind: "staff", user: { id: 1 } as SessionUser, staff: staffActor(actor) };
          const where: Prisma.BillWhereInput = { AND: [billScopeWhere(billsActor), { userId }] };
          const expected = await prismaBillPage(where, sort.orderBy, sort.direction, window);
          const clinics = billsActor.kind === "staff" ? clinicScopeFilter(billsActor.staff)?.in : undefined;
          expect(await billListRows(deps(), { clinics, userId, param: undefined, ...sort, ...window })).toEqual(expected);
          expect(await billListTotal(deps(), { clinics, userId, param: undefined })).toBe(await fresh.db.prisma.bill.count({ where }));
        }
      }),
      { numRuns: runs, seed: fcSeed },
    );
  });

  it("audit trail: who acted, which patient, action and instants, newest first, paged, with the capped count", async () => {
    const instant = fc.constantFrom(
      "2026-03-01T03:00:00.000Z",
      "2026-03-01T03:00:00.001Z",
      "2026-03-02T15:30:00.000Z",
      "2026-04-10T02:59:59.999Z",
    );
    const personId = fc.option(fc.constantFrom(1, 2, 3), { nil: null, freq: 3 });
    const eventArb = fc.record({
      actorId: personId,
      actorRole: fc.option(fc.constantFrom(0, 1, 2), { nil: null }),
      patientId: personId,
      action: fc.constantFrom("bill.list", "user.read", "audit.list"),
      resourceId: fc.option(fc.constantFrom("7", "12.345.678-5"), { nil: null }),
      outcome: fc.constantFrom("ok", "denied"),
      ip: fc.option(fc.constant("10.0.0.9"), { nil: null }),
      before: fc.option(fc.dictionary(text(2), fc.oneof(fc.integer(), text(3), fc.boolean(), fc.array(fc.nat(9), { maxLength: 3 }))), {
        nil: undefined,
      }),
      after: fc.option(fc.record({ page: fc.nat(9), param: text(3) }), { nil: undefined }),
      createdAt: instant,
    });
    const filterArb = fc.record({
      actorId: fc.option(fc.constantFrom(1, 2, 3), { nil: undefined }),
      patientId: fc.option(fc.constantFrom(1, 2, 3), { nil: undefined }),
      action: fc.option(fc.constantFrom("bill.list", "user.read"), { nil: undefined }),
      from: fc.option(
        instant.map((iso) => new Date(iso)),
        { nil: undefined },
      ),
      to: fc.option(
        instant.map((iso) => new Date(iso)),
        { nil: undefined },
      ),
      window: pagingArb,
      cap: fc.constantFrom(1, 3, 1_000),
    });
    // The trail is append-only (the table refuses DELETE): each run adds to what the earlier runs wrote.
    await fc.assert(
      fc.asyncProperty(
        fc.array(eventArb, { maxLength: 20 }),
        fc.array(filterArb, { minLength: 4, maxLength: 8 }),
        async (events, filters) => {
          await fresh.db.prisma.auditEvent.createMany({
            data: events.map((event) => ({ ...event, resource: "prueba", createdAt: new Date(event.createdAt) })),
          });
          for (const { window, cap, ...filter } of filters) {
            const where: Prisma.AuditEventWhereInput = {
              actorId: filter.actorId,
              patientId: filter.patientId,
              action: filter.action,
              createdAt: filter.from || filter.to ? { gte: filter.from, lt: filter.to } : undefined,
            };
            const expected = await fresh.db.prisma.auditEvent.findMany({
              where,
              orderBy: [{ createdAt: "desc" }, { id: "desc" }],
              ...window,
              select: {
                id: true,
                createdAt: true,
                action: true,
                resource: true,
                resourceId: true,
                outcome: true,
                actorId: true,
                actorRole: true,
                patientId: true,
                ip: true,
                before: true,
                after: true,
              },
            });
            expect(await auditRows(deps(), filter, window)).toEqual(expected);
            expect(await auditCount(deps(), filter, cap)).toBe(await fresh.db.prisma.auditEvent.count({ where, take: cap }));
          }
        },
      ),
      { numRuns: runs, seed: fcSeed },
    );
  });
});
