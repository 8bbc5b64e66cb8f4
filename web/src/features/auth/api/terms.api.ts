import { useMutation } from "@tanstack/react-query";
import { useTRPC } from "../../../lib/trpc.ts";

// The terms page's call (tRPC terms.accept); it runs inside the signed-in app, with React Query.

type AcceptTermsOptions = Parameters<ReturnType<typeof useTRPC>["terms"]["accept"]["mutationOptions"]>[0];

export function useAcceptTerms(options: AcceptTermsOptions) {
  const trpc = useTRPC();
  return useMutation(trpc.terms.accept.mutationOptions(options));
}
