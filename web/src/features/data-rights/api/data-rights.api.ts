import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import {
  ACCESS_PAGE_SIZE,
  dataExportMessages,
  RIGHTS_REQUEST_STATUSES,
  rightsRequestMessages,
  type AccessScope,
  type RightsRequestStatusName,
} from "@contract/data-rights.ts";
import { errorMessage, useTRPC } from "../../../lib/trpc.ts";

// The calls of the patient's rights over their data (tRPC dataRights.*, issue 28); the ZIP itself is a signed REST link.

type Trpc = ReturnType<typeof useTRPC>;
type CreateOptions = Parameters<Trpc["dataRights"]["createRequest"]["mutationOptions"]>[0];
type UpdateOptions = Parameters<Trpc["dataRights"]["updateRequest"]["mutationOptions"]>[0];
type ExportOptions = Parameters<Trpc["dataRights"]["requestExport"]["mutationOptions"]>[0];

export const accessesFailed = "No fue posible cargar los accesos a los datos. Sus datos están a salvo: no se ha perdido nada.";
export const requestsFailed = "No fue posible cargar las solicitudes. Sus datos están a salvo: no se ha perdido nada.";

/** One page of accesses: the patient's own, or (with a userId) one patient's for staff. */
export function useAccesses(range: { from: string; to: string; scope?: AccessScope }, page: number, userId?: number) {
  const trpc = useTRPC();
  const input = { ...range, page, limit: ACCESS_PAGE_SIZE };
  const meta = { errorToast: () => null };
  const own = useQuery(
    trpc.dataRights.accesses.queryOptions(input, { enabled: userId === undefined, placeholderData: keepPreviousData, staleTime: 0, meta }),
  );
  const staff = useQuery(
    trpc.dataRights.patientAccesses.queryOptions(
      { ...input, userId: userId ?? 0 },
      { enabled: userId !== undefined, placeholderData: keepPreviousData, staleTime: 0, meta },
    ),
  );
  return userId === undefined ? own : staff;
}

export function useOwnRequests() {
  const trpc = useTRPC();
  return useQuery(trpc.dataRights.requests.queryOptions(undefined, { staleTime: 0, meta: { errorToast: () => null } }));
}

export function useCreateRequest(options: CreateOptions) {
  const trpc = useTRPC();
  return useMutation(trpc.dataRights.createRequest.mutationOptions(options));
}

export function useStaffRequests(statusParam: string, page: number) {
  const trpc = useTRPC();
  const status = RIGHTS_REQUEST_STATUSES.find((known): known is RightsRequestStatusName => known === statusParam);
  return useQuery(
    trpc.dataRights.staffRequests.queryOptions(
      { status, page, limit: 20 },
      { placeholderData: keepPreviousData, staleTime: 0, meta: { errorToast: () => rightsRequestMessages.listFailed } },
    ),
  );
}

export const updateFailed = "No fue posible guardar el cambio, por favor intente más tarde";

/** A change of a request's state; a dialog that shows the refusal itself asks for no toast. */
export function useUpdateRequest(options: UpdateOptions, { toast = true } = {}) {
  const trpc = useTRPC();
  return useMutation(
    trpc.dataRights.updateRequest.mutationOptions({
      ...options,
      meta: { errorToast: (error) => (toast ? errorMessage(error, updateFailed) : null) },
    }),
  );
}

/** The latest export; polled every 2 s while it is being prepared. */
export function useExportState() {
  const trpc = useTRPC();
  return useQuery(
    trpc.dataRights.exportState.queryOptions(undefined, {
      staleTime: 0,
      gcTime: 0,
      refetchInterval: (query) => (query.state.data?.latest?.status === "preparing" ? 2000 : false),
      meta: { errorToast: () => dataExportMessages.failed },
    }),
  );
}

export function useRequestExport(options: ExportOptions) {
  const trpc = useTRPC();
  return useMutation(
    trpc.dataRights.requestExport.mutationOptions({
      ...options,
      meta: { errorToast: (error) => errorMessage(error, dataExportMessages.failed) },
    }),
  );
}
