import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "../../../lib/trpc.ts";

// The auth feature's calls to the server (tRPC auth.* and terms.accept).

type Trpc = ReturnType<typeof useTRPC>;
type LoginOptions = Parameters<Trpc["auth"]["login"]["mutationOptions"]>[0];
type RequestResetOptions = Parameters<Trpc["auth"]["requestPasswordReset"]["mutationOptions"]>[0];
type ResetPasswordOptions = Parameters<Trpc["auth"]["resetPassword"]["mutationOptions"]>[0];
type AcceptTermsOptions = Parameters<Trpc["terms"]["accept"]["mutationOptions"]>[0];

export function useLogin(options: LoginOptions) {
  const trpc = useTRPC();
  return useMutation(trpc.auth.login.mutationOptions(options));
}

export function useRequestPasswordReset(options: RequestResetOptions) {
  const trpc = useTRPC();
  return useMutation(trpc.auth.requestPasswordReset.mutationOptions(options));
}

export function useResetPassword(options: ResetPasswordOptions) {
  const trpc = useTRPC();
  return useMutation(trpc.auth.resetPassword.mutationOptions(options));
}

export function useAcceptTerms(options: AcceptTermsOptions) {
  const trpc = useTRPC();
  return useMutation(trpc.terms.accept.mutationOptions(options));
}
