import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../../lib/trpc.ts";

// The second factor's and the sessions' calls (tRPC auth.*; issue 27), for the enrolment page and 'Mi cuenta'.

type Trpc = ReturnType<typeof useTRPC>;
type ConfirmOptions = Parameters<Trpc["auth"]["confirmSecondFactor"]["mutationOptions"]>[0];
type StartOptions = Parameters<Trpc["auth"]["startSecondFactor"]["mutationOptions"]>[0];
type EndSessionOptions = Parameters<Trpc["auth"]["endSession"]["mutationOptions"]>[0];
type EndOthersOptions = Parameters<Trpc["auth"]["endOtherSessions"]["mutationOptions"]>[0];

export function useSecondFactorStatus() {
  const trpc = useTRPC();
  return useQuery(trpc.auth.secondFactorStatus.queryOptions(undefined, { gcTime: 0 }));
}

export function useStartSecondFactor(options: StartOptions) {
  const trpc = useTRPC();
  return useMutation(trpc.auth.startSecondFactor.mutationOptions(options));
}

export function useConfirmSecondFactor(options: ConfirmOptions) {
  const trpc = useTRPC();
  return useMutation(trpc.auth.confirmSecondFactor.mutationOptions(options));
}

/** The open sessions, asked again every `refetchInterval` ms while shown (none when not given). */
export function useActiveSessions(refetchInterval?: number) {
  const trpc = useTRPC();
  return useQuery(trpc.auth.sessions.queryOptions(undefined, { gcTime: 0, refetchInterval }));
}

export function useEndSession(options: EndSessionOptions) {
  const trpc = useTRPC();
  return useMutation(trpc.auth.endSession.mutationOptions(options));
}

export function useEndOtherSessions(options: EndOthersOptions) {
  const trpc = useTRPC();
  return useMutation(trpc.auth.endOtherSessions.mutationOptions(options));
}
