import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../../lib/trpc.ts";

// The newest results of the summary on 'Mi cuenta' (tRPC reports.latest). No toast: a summary that could not be asked
// for simply does not show, so 'Mi cuenta' never depends on the laboratory or the PACS.

export function useLatestResults() {
  const trpc = useTRPC();
  // The server keeps the providers' answer for a minute; asking more often would only read its cache.
  return useQuery(trpc.reports.latest.queryOptions(undefined, { staleTime: 60_000 }));
}
