import { useMutation, useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../../lib/trpc.ts";

// The account feature's calls to the server (tRPC account.*).

type Trpc = ReturnType<typeof useTRPC>;
type UpdateProfileOptions = Parameters<Trpc["account"]["updateProfile"]["mutationOptions"]>[0];
type ChangePasswordOptions = Parameters<Trpc["account"]["changePassword"]["mutationOptions"]>[0];

/** The caller's account, fresh from the server on every visit (gcTime 0: no stale copy can overwrite a newer one). */
export function useOwnAccount() {
  const trpc = useTRPC();
  return useQuery(trpc.account.me.queryOptions(undefined, { gcTime: 0 }));
}

export function useUpdateProfile(options: UpdateProfileOptions) {
  const trpc = useTRPC();
  return useMutation(trpc.account.updateProfile.mutationOptions(options));
}

/** Changes the caller's password; the answer carries the new access token. */
export function useChangeOwnPassword(options: ChangePasswordOptions) {
  const trpc = useTRPC();
  return useMutation(trpc.account.changePassword.mutationOptions(options));
}
