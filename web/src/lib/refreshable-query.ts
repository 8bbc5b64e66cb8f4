import { useRef } from "react";
import { useQuery, type QueryKey, type UseQueryOptions } from "@tanstack/react-query";

/**
 * A results list the server may answer from its copy of the provider's answer of the last minute (issue 26).
 * `refresh()` ('Actualizar') makes the next fetch ask the server to skip that copy and ask the provider; it resolves
 * true when the list came back. `fetch` gets that choice (true once, after `refresh()`) and the query's abort signal.
 */
export function useRefreshableQuery<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(
  options: Omit<UseQueryOptions<TQueryFnData, TError, TData, TQueryKey>, "queryFn">,
  fetch: (refresh: boolean, signal: AbortSignal) => Promise<TQueryFnData>,
) {
  const bypass = useRef(false);
  const query = useQuery({
    ...options,
    queryFn: ({ signal }) => {
      const refresh = bypass.current;
      bypass.current = false;
      return fetch(refresh, signal);
    },
  });
  const refresh = async () => {
    bypass.current = true;
    return (await query.refetch()).isSuccess;
  };
  return { query, refresh };
}
