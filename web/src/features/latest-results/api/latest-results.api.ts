import { useQuery } from "@tanstack/react-query";
import { takeEarlySummary } from "../../../lib/session-questions.ts";
import { queryClient, trpcOptions, useTRPC } from "../../../lib/trpc.ts";

// The newest results of the summary on 'Mi cuenta' (tRPC reports.latest). No toast: a summary that could not be asked
// for simply does not show, so 'Mi cuenta' never depends on the laboratory or the PACS.

// The server keeps the providers' answer for a minute; asking more often would only read its cache.
const STALE_MS = 60_000;

export function useLatestResults() {
  const trpc = useTRPC();
  // Always the patient's own: 'Mi cuenta' shows one person, under 'Ver como' too (issue 45 §2).
  return useQuery(trpc.reports.latest.queryOptions(undefined, { staleTime: STALE_MS, trpc: { context: { ownAccount: true } } }));
}

/**
 * Starts asking while the route's guard still runs (issue 26: the summary was the last thing 'Mis datos' painted, its
 * question going out only once the page had rendered). A 401 is left to the guard, which asks the same token.
 */
export function prefetchLatestResults(): void {
  const options = trpcOptions.reports.latest.queryOptions(undefined, {
    staleTime: STALE_MS,
    trpc: { context: { sessionCheck: false, ownAccount: true } },
  });
  // On a first load of the page the public shell already asked (lib/session-questions.ts): the query takes that answer
  // (and the page's own useQuery waits for it instead of asking again); without one, it asks now.
  const early = takeEarlySummary("latestResults");
  const ask = options.queryFn!;
  void queryClient.prefetchQuery(early ? { ...options, queryFn: async (context) => (await early) ?? ask(context) } : options);
}
