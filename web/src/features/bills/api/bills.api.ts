import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { PatientSortField, SortDirection, StaffSortField } from "@contract/bills.lists.ts";
import { PAGE_SIZE } from "../../../components/ui/paginator-pages.ts";
import { takeEarlySummary } from "../../../lib/session-questions.ts";
import { queryClient, trpcOptions, useTRPC } from "../../../lib/trpc.ts";
import { billScreenMessages } from "../bill-format.ts";

// The bills feature's calls to the server (tRPC bills.*): pages use these hooks, never the client directly. A failed
// call's toast is its SPEC §8 text in `meta.errorToast` (lib/error-toast.ts).

/** One page of the staff search over every bill of the clinic ('error de sistema vuelva a intentarlo' on failure). */
export function useStaffBills(query: { page: number; search: string; orderBy: StaffSortField; direction: SortDirection }) {
  const trpc = useTRPC();
  return useQuery(
    trpc.bills.search.queryOptions(
      { page: query.page, limit: PAGE_SIZE, param: query.search || undefined, orderBy: query.orderBy, direction: query.direction },
      { placeholderData: keepPreviousData, staleTime: 0, meta: { errorToast: billScreenMessages.listFailed } },
    ),
  );
}

/**
 * One page of the patient's own bills. Asked again when the tab gets the focus back: a payment finished in another
 * tab (or at the clinic) must not leave this one offering 'Pagar' (issue 33).
 */
export function useMyBills(query: { page: number; orderBy: PatientSortField; direction: SortDirection }) {
  const trpc = useTRPC();
  return useQuery(
    trpc.bills.mine.queryOptions(
      { page: query.page, limit: PAGE_SIZE, orderBy: query.orderBy, direction: query.direction },
      {
        placeholderData: keepPreviousData,
        staleTime: 0,
        refetchOnWindowFocus: true,
        meta: { errorToast: billScreenMessages.listFailed },
      },
    ),
  );
}

/**
 * How many of the patient's bills are unpaid and their total ('Total por pagar'); asked again on focus. `ownAccount`:
 * the signed-in patient's own even under 'Ver como' ('Mi cuenta' shows one person, the patient: issue 45 §2), under a
 * key of its own so that neither answer stands in for the other.
 */
export function usePendingBills({ ownAccount = false }: { ownAccount?: boolean } = {}) {
  const trpc = useTRPC();
  return useQuery(
    ownAccount ? ownPendingBillsOptions() : trpc.bills.pending.queryOptions(undefined, { staleTime: 0, refetchOnWindowFocus: true }),
  );
}

// An answer asked this recently is not asked again as the summary mounts: the route's loader (or the public shell, on a
// first load) has just asked it. A payment invalidates it (useReloadMyBills), so a paid bill never lingers here.
const OWN_SUMMARY_FRESH_MS = 10_000;

function ownPendingBillsOptions() {
  const options = trpcOptions.bills.pending.queryOptions(undefined, {
    staleTime: OWN_SUMMARY_FRESH_MS,
    refetchOnWindowFocus: true,
    trpc: { context: { ownAccount: true } },
  });
  // Under the count's key plus a mark: invalidating the count reloads this one too.
  const [path, args] = options.queryKey;
  return { ...options, queryKey: [path, { ...args, ownAccount: true }] as unknown as typeof options.queryKey };
}

/**
 * Starts asking what 'Mi cuenta' shows as pending while the route's guard still runs (issue 46: the summary is the
 * page's largest text). On a first load the public shell already asked (lib/session-questions.ts): the query takes that
 * answer. A 401 is left to the guard, which asks the same token.
 */
export function prefetchOwnPendingBills(): void {
  const options = ownPendingBillsOptions();
  const early = takeEarlySummary("pendingBills");
  const ask = trpcOptions.bills.pending.queryOptions(undefined, { trpc: { context: { sessionCheck: false, ownAccount: true } } }).queryFn!;
  void queryClient.prefetchQuery({ ...options, queryFn: async (context) => (early && (await early)) ?? ask(context) });
}

/** Reloads the patient's bills and what is pending (after a payment changed one). */
export function useReloadMyBills(): () => void {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: trpc.bills.mine.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.bills.pending.queryKey() });
  };
}

/** Reloads every bills list and bill (after a bill or its files changed). */
export function useReloadBills(): () => Promise<void> {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries(trpc.bills.pathFilter());
}

/** A bill's files, fresh each time the attachments modal opens. */
export function useBillFiles(billId: number) {
  const trpc = useTRPC();
  return useQuery(trpc.bills.files.queryOptions({ id: billId }, { staleTime: 0, meta: { errorToast: billScreenMessages.listFailed } }));
}

/** A short-lived download link of one file. */
export function useBillFileLink() {
  const trpc = useTRPC();
  return useMutation(trpc.bills.fileLink.mutationOptions({ meta: { errorToast: billScreenMessages.listFailed } }));
}

/**
 * The patient of a typed RUT for the bill form (issue 33): their name, or the error 'No existe un paciente con ese
 * RUT' shown on the field (no toast). Asked only once the RUT is valid (`rut` null before).
 */
export function useBillPatient(rut: string | null) {
  const trpc = useTRPC();
  return useQuery({ ...trpc.bills.patient.queryOptions({ rut: rut ?? "" }, { staleTime: 60_000, retry: false }), enabled: rut !== null });
}

/** The bill being edited, read fresh (`billId` null: a new bill, nothing to read). */
export function useBill(billId: number | null) {
  const trpc = useTRPC();
  return useQuery({
    ...trpc.bills.get.queryOptions({ id: billId ?? 0 }, { staleTime: 0, meta: { errorToast: billScreenMessages.loadFailed } }),
    enabled: billId !== null,
  });
}

/** Creates a bill; its failure is shown by the form (SPEC §8: modal 'Problema en el servicio', not a toast). */
export function useCreateBill() {
  const trpc = useTRPC();
  return useMutation(trpc.bills.create.mutationOptions());
}

/** Updates a bill ('Error al subir los archivos' on failure, SPEC §8). */
export function useUpdateBill() {
  const trpc = useTRPC();
  return useMutation(trpc.bills.update.mutationOptions({ meta: { errorToast: billScreenMessages.uploadFailed } }));
}

/** Removes one stored file of a bill ('Error al subir los archivos' on failure: part of the account update). */
export function useRemoveBillFile() {
  const trpc = useTRPC();
  return useMutation(trpc.bills.removeFile.mutationOptions({ meta: { errorToast: billScreenMessages.uploadFailed } }));
}

/** Deletes a bill and its files. */
export function useRemoveBill() {
  const trpc = useTRPC();
  return useMutation(trpc.bills.remove.mutationOptions({ meta: { errorToast: billScreenMessages.deleteFailed } }));
}
