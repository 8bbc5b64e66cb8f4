import { useQuery } from "@tanstack/react-query";
import type { DayRange } from "../../../components/ui/DateRangeFilter.tsx";
import { formatDaySlashed } from "../../../lib/dates.ts";
import { RESULTS_ERROR_MESSAGE } from "../../../lib/results.ts";
import { useRefreshableQuery } from "../../../lib/refreshable-query.ts";
import { trpcClient, useTRPC } from "../../../lib/trpc.ts";

// The laboratory feature's calls to the server (tRPC laboratory.*). A failure shows SPEC §8's results toast.

/**
 * The patient's orders between two days, asked of the server each time; the server may answer with the laboratory's
 * answer of the last minute (issue 26). `refresh()` ('Actualizar') asks it to skip that copy and ask the laboratory;
 * it resolves true when the list came back.
 */
export function useLabOrders(range: DayRange) {
  const trpc = useTRPC();
  const input = { fecha_inicio: formatDaySlashed(range.from), fecha_termino: formatDaySlashed(range.to) };
  return useRefreshableQuery(
    trpc.laboratory.orders.queryOptions(input, { staleTime: 0, meta: { errorToast: RESULTS_ERROR_MESSAGE } }),
    (refresh, signal) => trpcClient.laboratory.orders.query({ ...input, refresh }, { signal }),
  );
}

/** An order's procedures: fetched the first time its row opens, then kept (SPEC §4). */
export function useLabOrder(orderNumber: string) {
  const trpc = useTRPC();
  return useQuery(
    trpc.laboratory.order.queryOptions(
      { orderNumber },
      { staleTime: Infinity, gcTime: Infinity, meta: { errorToast: RESULTS_ERROR_MESSAGE } },
    ),
  );
}

/** 'Ver evolución': one analyte's values across all the patient's orders, asked when the panel opens. */
export function useAnalyteSeries(code: string) {
  const trpc = useTRPC();
  return useQuery(trpc.laboratory.series.queryOptions({ code }, { staleTime: 60_000, meta: { errorToast: RESULTS_ERROR_MESSAGE } }));
}
