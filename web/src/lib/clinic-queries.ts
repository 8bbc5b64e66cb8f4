import { useQuery } from "@tanstack/react-query";
import { currentClinic } from "./clinic.ts";
import { useTRPC } from "./trpc.ts";

// Public clinic data several features read (login links, scheduling frames, the terms PDF): shared here so no
// feature imports another.

/** This site's clinic settings (branding, result-site links, scheduling frames); they do not change while the app runs. */
export function useClinicSettings() {
  const trpc = useTRPC();
  return useQuery(trpc.clinics.settings.queryOptions({ clinic: currentClinic().key }, { staleTime: Infinity }));
}

/** The address of this clinic's terms and conditions PDF. */
export function useTermsDocumentUrl(options: { staleTime?: number } = {}) {
  const trpc = useTRPC();
  return useQuery(trpc.terms.documentUrl.queryOptions({ clinic: currentClinic().key }, options));
}
