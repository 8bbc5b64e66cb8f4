import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "../../../lib/trpc.ts";

// 'Avisos' in 'Mi cuenta' (issue 31): which e-mail notices the patient gets (tRPC notices.*).

const SAVE_FAILED = "No se pudo guardar su preferencia de avisos. Intente nuevamente.";

export function useNoticePreferences() {
  const trpc = useTRPC();
  return useQuery(trpc.notices.preferences.queryOptions(undefined, { gcTime: 0 }));
}

/** Saves one switch; the answer (the stored preferences) replaces the cached ones. */
export function useUpdateNoticePreferences() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.notices.update.mutationOptions({
      meta: { errorToast: SAVE_FAILED },
      onSuccess: (stored) => queryClient.setQueryData(trpc.notices.preferences.queryKey(), stored),
    }),
  );
}
