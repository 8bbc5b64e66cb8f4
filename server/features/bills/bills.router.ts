import { z } from "zod";
import { actingPatientProcedure, actingUserProcedure, router, staffProcedure } from "../../trpc/trpc.ts";
import { billPatient, ZBillPatientInput } from "./bills-patient.ts";
import { pendingBillsSummary } from "./bills-pending.ts";
import {
  ZBillId,
  ZCreateBillInput,
  ZFilePath,
  ZPatientBillsInput,
  ZStaffBillsInput,
  ZUpdateBillInput,
} from "../../contract/bills.schemas.ts";
import { createBill, deleteBill, getBill, getBillStatus, listOwnBills, listStaffBills, updateBill } from "./bills.service.ts";
import { deleteBillFile, fileDownloadLink, listBillFiles } from "./bills-files.service.ts";

// tRPC `bills.*`: the same services as REST /files/* (SPEC §7). The services check the caller's role and scope
// (patients: their own bills; executives: their clinics; admins: all). File uploads go through REST multipart only.

const ZId = z.object({ id: ZBillId });
const ZPath = z.object({ path: ZFilePath });

export const billsRouter = router({
  /** The patient's unpaid bills, counted and summed ('Total por pagar', the summary of 'Mi cuenta'). */
  pending: actingPatientProcedure("cuentas-pagos", "bill.list").query(({ ctx }) => pendingBillsSummary(ctx.deps, ctx.user, ctx.meta)),
  /** The bill form's patient: name for a RUT, or 'No existe un paciente con ese RUT' (issue 33). */
  patient: staffProcedure("bill.read")
    .input(ZBillPatientInput)
    .query(({ ctx, input }) => billPatient(ctx.deps, ctx.user, input, ctx.meta)),
  mine: actingUserProcedure("cuentas-pagos", "bill.list")
    .input(ZPatientBillsInput.omit({ rut: true }))
    .query(({ ctx, input }) => listOwnBills(ctx.deps, ctx.user, input, ctx.meta)),
  search: staffProcedure("bill.list")
    .input(ZStaffBillsInput)
    .query(({ ctx, input }) => listStaffBills(ctx.deps, ctx.user, input, ctx.meta)),
  get: staffProcedure("bill.read")
    .input(ZId)
    .query(({ ctx, input }) => getBill(ctx.deps, ctx.user, input.id, ctx.meta)),
  status: actingUserProcedure("cuentas-pagos", "bill.status")
    .input(ZId)
    .query(({ ctx, input }) => getBillStatus(ctx.deps, ctx.user, input.id, ctx.meta)),
  files: actingUserProcedure("cuentas-pagos", "bill.files.list")
    .input(ZId)
    .query(({ ctx, input }) => listBillFiles(ctx.deps, ctx.user, input.id, ctx.meta)),
  fileLink: actingUserProcedure("cuentas-pagos", "bill.file.link")
    .input(ZPath)
    .mutation(({ ctx, input }) => fileDownloadLink(ctx.deps, ctx.user, input.path, ctx.meta)),
  create: staffProcedure("bill.create")
    .input(ZCreateBillInput)
    .mutation(({ ctx, input }) => createBill(ctx.deps, ctx.user, input, ctx.meta)),
  update: staffProcedure("bill.update")
    .input(ZUpdateBillInput.extend({ id: ZBillId }))
    .mutation(({ ctx, input: { id, ...changes } }) => updateBill(ctx.deps, ctx.user, id, changes, ctx.meta)),
  remove: staffProcedure("bill.delete")
    .input(ZId)
    .mutation(({ ctx, input }) => deleteBill(ctx.deps, ctx.user, input.id, ctx.meta)),
  removeFile: staffProcedure("bill.file.delete")
    .input(ZPath)
    .mutation(({ ctx, input }) => deleteBillFile(ctx.deps, ctx.user, input.path, ctx.meta)),
});
