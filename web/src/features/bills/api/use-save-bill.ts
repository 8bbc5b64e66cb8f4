import { billFormSchema, typedAmountValue, type BillFormValues } from "@contract/bills.schemas.ts";
import { currentClinic } from "../../../lib/clinic.ts";
import { errorMessage } from "../../../lib/trpc.ts";
import type { PendingFile } from "../BillFilesField.tsx";
import { UploadError, uploadBillFile } from "../upload-files.ts";
import { useCreateBill, useReloadBills, useRemoveBillFile, useUpdateBill } from "./bills.api.ts";

export type SaveBillResult =
  /** The bill could not be created: nothing was stored (SPEC §8: modal 'Problema en el servicio'). */
  | { outcome: "create-failed"; detail: string }
  /** A removal or the update failed; its toast is the call's meta.errorToast. */
  | { outcome: "update-failed" }
  /** The bill is stored; `uploadFailures` holds the HTTP status of each file that failed (0: no answer). */
  | { outcome: "saved"; created: boolean; uploadFailures: number[] };

export interface SaveBillInput {
  /** The bill being edited, or null to create one. */
  billId: number | null;
  values: BillFormValues;
  /** Paths of the stored files marked for removal (edit only). */
  removedPaths: string[];
  /** Files to upload once the bill is stored. */
  pending: PendingFile[];
  /** Progress of one pending file (0–1), and whether it failed. */
  onUploadProgress(key: string, fraction: number, failed: boolean): void;
}

/**
 * The bill form's save (SPEC §2, §4): create sends the bill, then uploads each PDF with its progress; edit removes the
 * files marked, updates the bill, then uploads the new ones. Every bills list is reloaded afterwards. Says what
 * happened; the form shows it.
 */
export function useSaveBill() {
  const create = useCreateBill();
  const update = useUpdateBill();
  const removeFile = useRemoveBillFile();
  const reloadBills = useReloadBills();

  /** Uploads the pending files one by one; returns the failures (HTTP status each). */
  async function uploadPending(billId: number, pending: PendingFile[], onUploadProgress: SaveBillInput["onUploadProgress"]) {
    const failures: number[] = [];
    for (const item of pending) {
      onUploadProgress(item.key, 0, false);
      try {
        await uploadBillFile(billId, item.file, (fraction) => onUploadProgress(item.key, fraction, false));
      } catch (error) {
        onUploadProgress(item.key, 1, true);
        failures.push(error instanceof UploadError ? error.status : 0);
      }
    }
    return failures;
  }

  async function save({ billId, values, removedPaths, pending, onUploadProgress }: SaveBillInput): Promise<SaveBillResult> {
    let storedId: number;
    if (billId === null) {
      try {
        const form = billFormSchema.parse(values);
        const created = await create.mutateAsync({
          rut: form.rut,
          accountCode: form.accountCode,
          createAccountIdDate: form.createAccountIdDate,
          amount: typedAmountValue(form.amount),
          isPaid: form.isPaid === "true",
          clinicCode: currentClinic().key,
        });
        storedId = created.accountId;
      } catch (error) {
        return { outcome: "create-failed", detail: errorMessage(error, "Error de sistema") };
      }
    } else {
      try {
        for (const path of removedPaths) await removeFile.mutateAsync({ path });
        const form = billFormSchema.parse(values);
        await update.mutateAsync({
          id: billId,
          rut: form.rut,
          createAccountIdDate: form.createAccountIdDate,
          amount: typedAmountValue(form.amount),
          isPaid: form.isPaid === "true",
        });
      } catch {
        await reloadBills();
        return { outcome: "update-failed" };
      }
      storedId = billId;
    }
    const uploadFailures = await uploadPending(storedId, pending, onUploadProgress);
    await reloadBills();
    return { outcome: "saved", created: billId === null, uploadFailures };
  }

  return { save };
}
