import { useCallback } from "react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { setActingFor, type ActingFor } from "../../../lib/acting-for.ts";
import type { MyCaregiverLinks } from "@contract/caregivers.ts";
import { errorMessage, queryClient, trpcOptions, useTRPC } from "../../../lib/trpc.ts";

// The caregivers feature's calls (tRPC caregivers.*): 'Ver como:', 'Mi cuenta' and the staff section 'Cuidadores'.

export const caregiverScreenMessages = {
  loadFailed: "No fue posible cargar los cuidadores, por favor intente más tarde",
  saveFailed: "No fue posible guardar el vínculo, por favor intente más tarde",
} as const;

const serverMessage = (fallback: string) => (error: unknown) => errorMessage(error, fallback);

const LINKS_STALE_MS = 30_000;

/** The signed-in patient's dependents (live links) and caregivers. */
export function useMyCaregiverLinks(enabled = true) {
  const trpc = useTRPC();
  return useQuery(trpc.caregivers.mine.queryOptions(undefined, { enabled, staleTime: LINKS_STALE_MS }));
}

/**
 * Has the links in the query cache before a patient page first renders (the area guard awaits it), so 'Ver como:'
 * shows with the page instead of pushing it down a moment later (issue 26). `early`: the answer the public shell
 * already asked for; without it, the cached links if fresh, else a fetch whose failure is left to the bar.
 */
export async function primeMyCaregiverLinks(early?: Promise<MyCaregiverLinks | undefined>): Promise<void> {
  const key = trpcOptions.caregivers.mine.queryKey();
  const links = early ? await early : undefined;
  if (links) queryClient.setQueryData(key, links);
  else await queryClient.prefetchQuery(trpcOptions.caregivers.mine.queryOptions(undefined, { staleTime: LINKS_STALE_MS }));
}

/**
 * Acts for `person` (null: oneself). Every screen's data is someone else's now: it is dropped (but the list of links),
 * and the page remounts (PortalLayout keys it by whom it shows) and asks again with the new X-Actuar-Por; a page the
 * link does not cover is not mounted, so it asks nothing.
 */
export function useSwitchActingFor() {
  const trpc = useTRPC();
  const client = useQueryClient();
  const linksKey = JSON.stringify(trpc.caregivers.mine.queryKey());
  return useCallback(
    (person: ActingFor | null) => {
      client.removeQueries({ predicate: (query) => JSON.stringify(query.queryKey) !== linksKey });
      setActingFor(person);
    },
    [client, linksKey],
  );
}

/** The dependent revokes one of their caregivers' links. */
export function useRevokeMyCaregiver() {
  const trpc = useTRPC();
  const client = useQueryClient();
  return useMutation(
    trpc.caregivers.revokeMine.mutationOptions({
      meta: { errorToast: serverMessage(caregiverScreenMessages.saveFailed) },
      onSuccess: () => client.invalidateQueries({ queryKey: trpc.caregivers.mine.queryKey() }),
    }),
  );
}

/** Whom the scheduling page books for (audited on the server when it is a dependent). */
export function useSchedulingPatient(enabled: boolean) {
  const trpc = useTRPC();
  return useQuery(trpc.caregivers.schedulingPatient.queryOptions(undefined, { enabled, gcTime: 0 }));
}

/** Staff: the dependent's links, live and past. */
export function useDependentLinks(dependentId: number) {
  const trpc = useTRPC();
  return useQuery(
    trpc.caregivers.list.queryOptions({ dependentId }, { gcTime: 0, meta: { errorToast: caregiverScreenMessages.loadFailed } }),
  );
}

function useLinkMutationOptions(dependentId: number) {
  const trpc = useTRPC();
  const client = useQueryClient();
  return {
    meta: { errorToast: serverMessage(caregiverScreenMessages.saveFailed) },
    onSuccess: () => client.invalidateQueries({ queryKey: trpc.caregivers.list.queryKey({ dependentId }) }),
  };
}

export function useCreateLink(dependentId: number) {
  const trpc = useTRPC();
  const options = useLinkMutationOptions(dependentId);
  // A refusal that belongs to a field is shown there by the form; no toast for it.
  return useMutation(trpc.caregivers.create.mutationOptions({ ...options, meta: { errorToast: () => null } }));
}

export function useRenewLink(dependentId: number) {
  const trpc = useTRPC();
  return useMutation(trpc.caregivers.renew.mutationOptions(useLinkMutationOptions(dependentId)));
}

export function useRevokeLink(dependentId: number) {
  const trpc = useTRPC();
  return useMutation(trpc.caregivers.revoke.mutationOptions(useLinkMutationOptions(dependentId)));
}
