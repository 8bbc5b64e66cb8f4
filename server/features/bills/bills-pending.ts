import type { AppDeps, RequestMeta } from "../../deps.ts";
import type { SessionUser } from "../../http/authenticate.ts";
import { actingForPatient } from "../../lib/access.ts";
import { audit } from "../../lib/audit.ts";

// Issue 33: what a patient still owes, for 'Total por pagar' on 'Cuentas hospitalarias' and the summary at the top of
// 'Mi cuenta'. The same bills the patient's list shows (their own, every clinic), counted by the database.

export interface PendingBillsSummary {
  /** Unpaid bills. */
  count: number;
  /** Sum of their amounts, in pesos. */
  total: number;
}

/** The patient's (or their dependent's) unpaid bills: how many and how much. Staff get 403 (they have no bills of their own). */
export async function pendingBillsSummary(deps: AppDeps, user: SessionUser, meta: RequestMeta): Promise<PendingBillsSummary> {
  const scope = await actingForPatient(deps, user, meta, "cuentas-pagos", "bill.list");
  const { patient } = scope;
  const { _count, _sum } = await deps.prisma.bill.aggregate({
    where: { userId: patient.id, isPaid: false },
    _count: { _all: true },
    _sum: { amount: true },
  });
  await audit(deps, user, meta, { action: "bill.list", resourceId: patient.rut, scope, after: { pendingSummary: true } });
  return { count: _count._all, total: _sum.amount ?? 0 };
}
