import { keepPreviousData, useMutation, useQuery } from "@tanstack/react-query";
import { PAGE_SIZE } from "../../../components/ui/paginator-pages.ts";
import { errorCode, errorMessage, useTRPC } from "../../../lib/trpc.ts";
import { userScreenMessages } from "../user-forms.ts";

// The users feature's calls to the server (tRPC users.*): pages and forms use these hooks, never the client directly.

/** One page of the staff user list; a failed page keeps the previous rows (SPEC §8). */
export function useUsersList(query: { page: number; search: string; roleType: number | undefined }) {
  const trpc = useTRPC();
  return useQuery(
    trpc.users.list.queryOptions(
      { page: query.page, limit: PAGE_SIZE, param: query.search || undefined, roleType: query.roleType },
      { placeholderData: keepPreviousData, staleTime: 0 },
    ),
  );
}

/** One user with privileges and patient clinics, read fresh each time the edit screen opens. */
export function useUserDetail(userId: number | undefined) {
  const trpc = useTRPC();
  return useQuery(
    trpc.users.get.queryOptions(
      { id: userId ?? 0 },
      { enabled: userId !== undefined, gcTime: 0, meta: { errorToast: userScreenMessages.loadFailed } },
    ),
  );
}

/** The clinic catalogue for the privileges multi-select (admin viewers only). */
export function useClinicCatalogue(enabled: boolean) {
  const trpc = useTRPC();
  return useQuery(
    trpc.users.clinics.queryOptions(undefined, { enabled, staleTime: Infinity, meta: { errorToast: userScreenMessages.loadFailed } }),
  );
}

type CreateUserOptions = Parameters<ReturnType<typeof useTRPC>["users"]["create"]["mutationOptions"]>[0];
type ResetPasswordOptions = Parameters<ReturnType<typeof useTRPC>["users"]["resetPassword"]["mutationOptions"]>[0];

/** The server's refusal of a RUT that already has an account, or null. */
export function duplicateRutMessage(error: unknown): string | null {
  const message = errorCode(error) === "CONFLICT" ? errorMessage(error, "") : "";
  return message.startsWith("Ya existe una cuenta con el Rut") ? message : null;
}

/** Creates an account; the server e-mails the temporary password. A failure's toast is the server's message (SPEC §8). */
export function useCreateUser(options: CreateUserOptions) {
  const trpc = useTRPC();
  return useMutation(
    trpc.users.create.mutationOptions({
      ...options,
      // A RUT that already has an account is shown on the Rut field instead (issue 33): one failure, one message.
      meta: { errorToast: (error) => (duplicateRutMessage(error) ? null : errorMessage(error, userScreenMessages.updateFailed)) },
    }),
  );
}

/** Staff set a new password for the user with that RUT. */
export function useResetUserPassword(options: ResetPasswordOptions) {
  const trpc = useTRPC();
  return useMutation(trpc.users.resetPassword.mutationOptions(options));
}

type ResetSecondFactorOptions = Parameters<ReturnType<typeof useTRPC>["users"]["resetSecondFactor"]["mutationOptions"]>[0];

/** An admin resets another person's second factor, with the reason the audit keeps (issue 27). */
export function useResetSecondFactor(options: ResetSecondFactorOptions) {
  const trpc = useTRPC();
  return useMutation(trpc.users.resetSecondFactor.mutationOptions(options));
}

/** E-mails the user the password-recovery link (issue 33); a failure's toast is the server's message. */
export function useSendResetLink() {
  const trpc = useTRPC();
  return useMutation(
    trpc.users.sendResetLink.mutationOptions({ meta: { errorToast: (error) => errorMessage(error, userScreenMessages.updateFailed) } }),
  );
}
