import { useMutation, useQueryClient } from "@tanstack/react-query";
import { agendaFreshReadDue, askAgendaFresh } from "../../../lib/agenda-freshness.ts";
import { useRefreshableQuery } from "../../../lib/refreshable-query.ts";
import { trpcClient, useTRPC } from "../../../lib/trpc.ts";

// The appointments feature's calls to the server (tRPC appointments.*, issue 44): the page uses these hooks only.

/** SPEC §8's toast of a failed list; the page's failure message repeats these words. */
export const APPOINTMENTS_LIST_FAILED = "Hubo un error al procesar la solicitud, por favor intente más tarde";

/** The server's own words of a refused change (e.g. inside the clinic's cancellation window), or a general one. */
export function changeFailureMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : APPOINTMENTS_LIST_FAILED;
}

/**
 * The patient's appointments, upcoming first then past; asked again when the tab gets the focus back. `refresh()`
 * ('Actualizar') asks the agenda now; it resolves true when the list came back.
 */
export function useAppointments() {
  const trpc = useTRPC();
  return useRefreshableQuery(
    trpc.appointments.list.queryOptions(undefined, {
      staleTime: 0,
      refetchOnWindowFocus: true,
      meta: { errorToast: APPOINTMENTS_LIST_FAILED },
    }),
    (refresh, signal) => trpcClient.appointments.list.query({ refresh: refresh || agendaFreshReadDue() }, { signal }),
  );
}

/** Reloads the lists (after a cancellation or a confirmation), from the agenda itself. */
function useReloadAppointments(): () => Promise<void> {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    askAgendaFresh();
    return queryClient.invalidateQueries({ queryKey: trpc.appointments.list.queryKey() });
  };
}

/** 'Anular hora'; its refusal is told in the confirmation dialog, not as a toast. */
export function useCancelAppointment() {
  const trpc = useTRPC();
  const reload = useReloadAppointments();
  return useMutation(trpc.appointments.cancel.mutationOptions({ onSettled: () => reload() }));
}

/** 'Confirmar asistencia'; a refusal shows the server's reason as a toast. */
export function useConfirmAppointment() {
  const trpc = useTRPC();
  const reload = useReloadAppointments();
  return useMutation(trpc.appointments.confirm.mutationOptions({ onSettled: () => reload(), meta: { errorToast: changeFailureMessage } }));
}

/** 'Agregar a mi calendario': asks for the appointment's iCalendar file and hands it to the browser as a download. */
export function useDownloadCalendar() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return async (id: string): Promise<boolean> => {
    try {
      const file = await queryClient.fetchQuery(trpc.appointments.calendar.queryOptions({ id }, { staleTime: 0, gcTime: 0 }));
      const url = URL.createObjectURL(new Blob([file.content], { type: "text/calendar;charset=utf-8" }));
      const anchor = document.createElement("a");
      anchor.href = url;
      anchor.download = file.fileName;
      document.body.append(anchor);
      anchor.click();
      anchor.remove();
      setTimeout(() => URL.revokeObjectURL(url), 1_000);
      return true;
    } catch {
      return false;
    }
  };
}

/**
 * The list for the summary at the top of 'Mi cuenta': always the signed-in patient's own, even under 'Ver como'
 * (issue 45 §2), under a key of its own so it never stands in for a dependent's list; no toast (a summary that cannot
 * ask says so in its own line). Invalidating the list (after a cancellation) reloads it too.
 */
export function useOwnAppointments() {
  const trpc = useTRPC();
  const options = trpc.appointments.list.queryOptions(undefined, {
    staleTime: 0,
    refetchOnWindowFocus: true,
    trpc: { context: { ownAccount: true } },
  });
  // Under the list's key plus a mark, so invalidating the list reloads this one too and neither stands in for the other.
  const [path, args] = options.queryKey;
  const { query } = useRefreshableQuery(
    { ...options, queryKey: [path, { ...args, ownAccount: true }] as unknown as typeof options.queryKey },
    (refresh, signal) =>
      trpcClient.appointments.list.query({ refresh: refresh || agendaFreshReadDue() }, { signal, context: { ownAccount: true } }),
  );
  return query;
}
