import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { AUDIT_PAGE_SIZE, auditMessages, type AuditFilters } from "@contract/audit.schemas.ts";
import { errorMessage, useTRPC } from "../../../lib/trpc.ts";

// The audit feature's calls to the server (tRPC audit.*); the CSV export is a REST download (download-csv.ts).

/** One page of the audit trail; a failure's toast is the server's message (e.g. a refused range), else SPEC's. */
export function useAuditEvents(filters: AuditFilters, page: number) {
  const trpc = useTRPC();
  return useQuery(
    trpc.audit.list.queryOptions(
      { ...filters, page, limit: AUDIT_PAGE_SIZE },
      {
        placeholderData: keepPreviousData,
        staleTime: 0,
        meta: { errorToast: (error) => errorMessage(error, auditMessages.listFailed) },
      },
    ),
  );
}
