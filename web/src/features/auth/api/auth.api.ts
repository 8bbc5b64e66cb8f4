import type { inferRouterInputs, inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@server-router";
import { trpcClient } from "../../../lib/trpc-client.ts";
import { useAction, type ActionOptions } from "../../../lib/use-action.ts";

// The auth feature's calls to the server from the public pages (tRPC auth.*), on the plain tRPC client: the login
// and recovery pages load without React Query (issue 14). The signed-in terms page uses terms.api.ts.

type Inputs = inferRouterInputs<AppRouter>["auth"];
type Outputs = inferRouterOutputs<AppRouter>["auth"];

export function useLogin(options: ActionOptions<Outputs["login"]>) {
  return useAction((input: Inputs["login"]) => trpcClient.auth.login.mutate(input), options);
}

export function useRequestPasswordReset(options: ActionOptions<Outputs["requestPasswordReset"]>) {
  return useAction((input: Inputs["requestPasswordReset"]) => trpcClient.auth.requestPasswordReset.mutate(input), options);
}

export function useResetPassword(options: ActionOptions<Outputs["resetPassword"]>) {
  return useAction((input: Inputs["resetPassword"]) => trpcClient.auth.resetPassword.mutate(input), options);
}

/** The login's second step (auth.verifyOtp) with the password-only token of the first step, which is not stored. */
export function useVerifyOtp(pendingToken: string, options: ActionOptions<Outputs["verifyOtp"]>) {
  return useAction((code: string) => trpcClient.auth.verifyOtp.mutate({ code }, { context: { bearer: pendingToken } }), options);
}
