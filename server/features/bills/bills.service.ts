import type { CreatedBill } from "../../contract/bills.dto.ts";
import type { AppDeps, RequestMeta } from "../../deps.ts";
import { Prisma } from "../../generated/prisma/client.ts";
import { Role } from "../../contract/roles.ts";
import { normalizeRut } from "../../contract/rut.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { parseInput } from "../../http/validate.ts";
import { noticeNewBill } from "../../lib/patient-notices.ts";
import { audit } from "../../lib/audit.ts";
import { AppError } from "../../lib/errors.ts";
import { findBill, holdsClinic, requireBillsReader, requireBillsStaff, type BillsActor } from "./bills-access.ts";
import {
  billDtoSelect,
  type BillRow,
  toBillDto,
  type BillDto,
  type BillFileDto,
  type PatientBillsPage,
  type StaffBillsPage,
} from "./bills.dto.ts";
import { billMessages, ZCreateBillInput, ZPatientBillsInput, ZStaffBillsInput, ZUpdateBillInput } from "../../contract/bills.schemas.ts";
import { billListRows, billListTotal, type BillListFilter } from "./bills-reads.repository.ts";
import { pageWindow } from "../../contract/params.ts";
import { clinicScopeFilter, refuseReach } from "../../lib/access.ts";
import { filesOfBill, fileRows } from "./bills-files.service.ts";
import { insertBillWithFiles } from "./bill-files.repository.ts";
import { isUniqueViolation } from "../../db/db-errors.ts";
import { dayToDate } from "../../contract/days.ts";
import type { UploadedPdf } from "./pdf-files.ts";
import { announceRowChange } from "../../db/row-changes.ts";

// Hospital bills and their PDFs (SPEC §2 bills screens, §4, §7 'Bills and files'). One service for REST and tRPC.

/** How many files each bill has: one grouped query over the BillFile billId index (no bytes read). */
async function billDtoById(deps: AppDeps, id: number): Promise<BillDto> {
  return toBillDto(await deps.prisma.bill.findUniqueOrThrow({ where: { id }, select: billDtoSelect }));
}

/**
 * Bills changed: every instance's bill list totals are dropped (the database announces it too). Users did not: a
 * "User" here dropped the staff user list's totals on every bill written.
 */
function announceBillsChanged(): void {
  announceRowChange("Bill", 0);
}

/**
 * One page of bills: the total (cached, see UserCaches.billTotals) and the rows (bills-reads.repository.ts), in
 * parallel. When the list is one patient's own, the patient's name comes from the signed-in user.
 */
async function billsPage(deps: AppDeps, filter: BillListFilter, owner?: BillRow["user"]) {
  const { clinics, userId, param } = filter;
  const [total, rows] = await Promise.all([
    deps.cache.billTotals.get(JSON.stringify({ clinics, userId, param: (param ?? "").trim() }), () => billListTotal(deps, filter)),
    billListRows(deps, filter),
  ]);
  return { total, rows: rows.map((row) => toBillDto(owner ? { ...row, user: owner } : row)) };
}

/** The clinics a bill list is limited to (billScopeWhere in SQL terms): none for an admin. */
function scopeClinics(actor: BillsActor): readonly string[] | undefined {
  return actor.kind === "staff" ? clinicScopeFilter(actor.staff)?.in : undefined;
}

/**
 * GET /files/accounts/{rut}: the bills of that RUT, sorted (default createAccountIdDate DESC) and paged. A patient
 * gets only their own: any other RUT answers like a RUT without bills. Staff get that patient's bills in their clinics.
 */
export async function listPatientBills(deps: AppDeps, user: SessionUser, input: unknown, meta: RequestMeta): Promise<PatientBillsPage> {
  const actor = await requireBillsReader(deps, user, meta, "bill.list");
  return billsOfRut(deps, actor, input, meta);
}

/** tRPC bills.mine: the bills of the patient the caller acts for (themself, or a dependent), without naming a RUT. */
export async function listOwnBills(deps: AppDeps, user: SessionUser, input: object, meta: RequestMeta): Promise<PatientBillsPage> {
  const actor = await requireBillsReader(deps, user, meta, "bill.list");
  return billsOfRut(deps, actor, { ...input, rut: actor.kind === "patient" ? actor.patient.rut : user.rut }, meta);
}

/** The page of bills of the input's RUT that `actor` (already allowed to read bills) may see. */
async function billsOfRut(deps: AppDeps, actor: BillsActor, input: unknown, meta: RequestMeta): Promise<PatientBillsPage> {
  const { user } = actor;
  const { rut, page, limit, orderBy, direction } = parseInput(ZPatientBillsInput, input);
  const target = normalizeRut(rut);
  if (actor.kind === "patient" && target !== actor.patient.rut) {
    await refuseReach(deps, user, meta, { action: "bill.list", resourceId: target });
    return { accounts: [], page, total: 0 };
  }
  // The owner's id, not a join on the RUT, so the page walks the (userId, sort, id) indexes.
  const owner =
    actor.kind === "patient" ? actor.patient : await deps.prisma.user.findUnique({ where: { rut: target }, select: { id: true } });
  if (!owner) return { accounts: [], page, total: 0 };
  const ownPage =
    actor.kind === "patient" ? { rut: actor.patient.rut, firstName: actor.patient.firstName, lastName: actor.patient.lastName } : undefined;
  const window = { orderBy, direction, ...pageWindow({ page, limit }) };
  const filter = { clinics: scopeClinics(actor), userId: owner.id, param: undefined, ...window };
  const { total, rows } = await billsPage(deps, filter, ownPage);
  await audit(deps, user, meta, { action: "bill.list", resourceId: target, patientId: owner.id });
  return { accounts: rows, page, total };
}

/** GET /files/filter/users: bills of the staff member's clinics (all for admins), searched, sorted and paged. */
export async function listStaffBills(deps: AppDeps, user: SessionUser, input: unknown, meta: RequestMeta): Promise<StaffBillsPage> {
  const actor = await requireBillsStaff(deps, user, meta, "bill.list");
  const { param, page, limit, orderBy, direction } = parseInput(ZStaffBillsInput, input);
  const window = { orderBy, direction, ...pageWindow({ page, limit }) };
  const { total, rows } = await billsPage(deps, { clinics: scopeClinics(actor), userId: undefined, param, ...window });
  await audit(deps, user, meta, { action: "bill.list", after: { param: param ?? "", page, total } });
  return { data: rows, page, total };
}

/** GET bill for the edit screen (staff): the bill and its files. */
export async function getBill(
  deps: AppDeps,
  user: SessionUser,
  id: unknown,
  meta: RequestMeta,
): Promise<BillDto & { files: BillFileDto[] }> {
  const actor = await requireBillsStaff(deps, user, meta, "bill.read");
  const bill = await findBill(deps, actor, meta, "bill.read", id);
  const files = await filesOfBill(deps, bill.id);
  await audit(deps, user, meta, { action: "bill.read", resourceId: bill.id, patientId: bill.userId });
  return { ...(await billDtoById(deps, bill.id)), files };
}

/** GET /payment/account-status/?accountId=: the bill's current state (its owner or staff of its clinic). */
export async function getBillStatus(deps: AppDeps, user: SessionUser, id: unknown, meta: RequestMeta): Promise<BillDto> {
  const actor = await requireBillsReader(deps, user, meta, "bill.status");
  const bill = await findBill(deps, actor, meta, "bill.status", id);
  await audit(deps, user, meta, { action: "bill.status", resourceId: bill.id, patientId: bill.userId });
  return billDtoById(deps, bill.id);
}

async function patientByRut(deps: AppDeps, rut: string): Promise<{ id: number; rut: string }> {
  const patient = await deps.prisma.user.findUnique({ where: { rut: normalizeRut(rut) }, select: { id: true, rut: true, roleType: true } });
  if (!patient || patient.roleType !== Role.patient) throw new AppError("BAD_REQUEST", billMessages.noPatient(rut));
  return patient;
}

export type { CreatedBill };

/**
 * POST /files/create-account: the bill and its PDFs (if sent in the same request), in one statement: a failure anywhere
 * leaves nothing behind. Executives only at clinics they hold. A bill never registers its patient with the clinic: it
 * gives the clinic's staff the bill, not rights over the patient's account (PERMISSIONS.md).
 */
export async function createBill(
  deps: AppDeps,
  user: SessionUser,
  input: unknown,
  meta: RequestMeta,
  files: UploadedPdf[] = [],
): Promise<CreatedBill> {
  const actor = await requireBillsStaff(deps, user, meta, "bill.create");
  const data = parseInput(ZCreateBillInput, input);
  const clinic = await deps.prisma.clinic.findUnique({ where: { codeClinicStr: data.clinicCode }, select: { codeClinicStr: true } });
  if (!clinic) throw new AppError("BAD_REQUEST", billMessages.invalidClinic);
  if (!holdsClinic(actor, clinic.codeClinicStr)) {
    await audit(deps, user, meta, { action: "bill.create", after: { clinicCode: data.clinicCode }, outcome: "denied" });
    throw new AppError("FORBIDDEN", billMessages.clinicNotAllowed);
  }
  const patient = await patientByRut(deps, data.rut);
  let billId: number;
  try {
    billId = await insertBillWithFiles(
      deps.sql,
      {
        accountCode: data.accountCode,
        createAccountIdDate: dayToDate(data.createAccountIdDate),
        amount: data.amount,
        isPaid: data.isPaid,
        userId: patient.id,
        clinicCode: clinic.codeClinicStr,
      },
      fileRows(files),
    );
    announceBillsChanged();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("CONFLICT", billMessages.duplicateAccount(data.accountCode));
    throw error;
  }
  const account = await billDtoById(deps, billId);
  const stored = await filesOfBill(deps, billId);
  await audit(deps, user, meta, {
    action: "bill.create",
    resourceId: billId,
    patientId: patient.id,
    after: { ...account, files: stored },
  });
  deps.background.run("new bill notice failed", () => noticeNewBill(deps, billId));
  return { account, accountId: billId, files: stored, message: billMessages.created };
}

/**
 * Refuses (409) a change to what a payment is bound to: once a payment is authorised, the amount, the patient and the
 * paid state are locked (undoing a payment is a refund, not an edit); while one is in progress at the provider, the
 * amount and the patient are. Runs under the bill's row lock, so a payment cannot start or settle in between.
 */
async function assertChangeKeepsPayments(
  tx: Prisma.TransactionClient,
  deps: AppDeps,
  bill: { id: number },
  changes: { amount?: number; isPaid?: boolean; userId?: number },
): Promise<void> {
  const [current] = await tx.$queryRaw<Array<{ amount: number; isPaid: boolean; userId: number }>>`
    SELECT "amount", "isPaid", "userId" FROM "Bill" WHERE id = ${bill.id} FOR UPDATE`;
  if (!current) throw new AppError("NOT_FOUND", billMessages.notFound);
  const changesAmountOrOwner =
    (changes.amount !== undefined && changes.amount !== current.amount) ||
    (changes.userId !== undefined && changes.userId !== current.userId);
  const unpays = changes.isPaid === false && current.isPaid;
  if (!changesAmountOrOwner && !unpays) return;
  const authorized = await tx.paymentTransaction.count({ where: { billId: bill.id, status: "AUTHORIZED" } });
  if (authorized > 0) throw new AppError("CONFLICT", billMessages.paidBillLocked);
  const pendingSince = new Date(Date.now() - deps.config.PAYMENT_PENDING_MINUTES * 60_000);
  const inProgress = await tx.paymentTransaction.count({
    where: { billId: bill.id, status: "INITIALIZED", createdAt: { gt: pendingSince } },
  });
  if (inProgress > 0 && changesAmountOrOwner) throw new AppError("CONFLICT", billMessages.paymentInProgressLocked);
}

/** PATCH /files/accountId/{id}: date, amount, status and patient; the account code never changes. */
export async function updateBill(deps: AppDeps, user: SessionUser, id: unknown, input: unknown, meta: RequestMeta): Promise<BillDto> {
  const actor = await requireBillsStaff(deps, user, meta, "bill.update");
  const bill = await findBill(deps, actor, meta, "bill.update", id);
  const changes = parseInput(ZUpdateBillInput, input);
  const before = await billDtoById(deps, bill.id);
  if (changes.accountCode !== undefined && changes.accountCode !== null && String(changes.accountCode) !== bill.accountCode)
    throw new AppError("BAD_REQUEST", billMessages.accountCodeNotEditable);
  const patient = changes.rut === undefined ? null : await patientByRut(deps, changes.rut);
  const data = {
    createAccountIdDate: changes.createAccountIdDate ? dayToDate(changes.createAccountIdDate) : undefined,
    amount: changes.amount,
    isPaid: changes.isPaid,
    userId: patient?.id,
  };
  await deps.prisma
    .$transaction(async (tx) => {
      await assertChangeKeepsPayments(tx, deps, bill, data);
      await tx.bill.update({ where: { id: bill.id }, data });
    })
    .catch(async (error: unknown) => {
      if (error instanceof AppError && error.code === "CONFLICT")
        await audit(deps, user, meta, {
          action: "bill.update",
          resourceId: bill.id,
          patientId: bill.userId,
          before,
          after: changes,
          outcome: "denied",
        });
      throw error;
    });
  announceBillsChanged();
  const after = await billDtoById(deps, bill.id);
  await audit(deps, user, meta, {
    action: "bill.update",
    resourceId: bill.id,
    patientId: patient?.id ?? bill.userId,
    before,
    after,
  });
  return after;
}

/** DELETE /files/account/{accountId}: the bill and its files. A bill with an authorised payment is kept (409). */
export async function deleteBill(deps: AppDeps, user: SessionUser, id: unknown, meta: RequestMeta): Promise<{ accountId: number }> {
  const actor = await requireBillsStaff(deps, user, meta, "bill.delete");
  const bill = await findBill(deps, actor, meta, "bill.delete", id);
  const paid = await deps.prisma.paymentTransaction.count({ where: { billId: bill.id, status: "AUTHORIZED" } });
  if (paid > 0) throw new AppError("CONFLICT", "No se puede eliminar una cuenta con pagos registrados");
  const files = await filesOfBill(deps, bill.id);
  const before = await billDtoById(deps, bill.id);
  await deps.prisma.bill.delete({ where: { id: bill.id } });
  announceBillsChanged();
  await audit(deps, user, meta, {
    action: "bill.delete",
    resourceId: bill.id,
    patientId: bill.userId,
    before: { ...before, files },
  });
  return { accountId: bill.id };
}
