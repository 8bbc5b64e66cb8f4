import { useQueryClient } from "@tanstack/react-query";
import type { DayRange } from "../../../components/ui/DateRangeFilter.tsx";
import { formatDaySlashed } from "../../../lib/dates.ts";
import { RESULTS_ERROR_MESSAGE } from "../../../lib/results.ts";
import { useRefreshableQuery } from "../../../lib/refreshable-query.ts";
import { trpcClient, useTRPC } from "../../../lib/trpc.ts";

// The imaging feature's calls to the server (tRPC imaging.*). A failure shows SPEC §8's results toast.

const meta = { errorToast: RESULTS_ERROR_MESSAGE };

/**
 * The patient's studies between two days, asked of the server each time; the server may answer with the PACS's answer
 * of the last minute (issue 26). `refresh()` ('Actualizar') asks it to skip that copy and ask the PACS; it resolves
 * true when the list came back.
 */
export function useImagingStudies(range: DayRange) {
  const trpc = useTRPC();
  const input = { dateFrom: formatDaySlashed(range.from), dateTo: formatDaySlashed(range.to) };
  return useRefreshableQuery(trpc.imaging.studies.queryOptions(input, { staleTime: 0, meta }), (refresh, signal) =>
    trpcClient.imaging.studies.query({ ...input, refresh }, { signal }),
  );
}

/** A study's viewer and report addresses, asked when the patient presses the button; null when the call failed. */
export function useStudyLinks() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const fetchOrNull = async (load: () => Promise<string>): Promise<string | null> => {
    try {
      return await load();
    } catch {
      return null;
    }
  };
  return {
    viewerUrl: (accessionNumber: string) =>
      fetchOrNull(() => queryClient.fetchQuery(trpc.imaging.viewerUrl.queryOptions({ accessionNumber }, { staleTime: 0, meta }))),
    reportUrl: (accessionNumber: string) =>
      fetchOrNull(() => queryClient.fetchQuery(trpc.imaging.reportUrl.queryOptions({ accessionNumber }, { staleTime: 0, meta }))),
  };
}
