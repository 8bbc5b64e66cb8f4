import { useQuery } from "@tanstack/react-query";
import { currentClinic } from "./clinic.ts";
import { loadClinicSettings } from "./clinic-settings.ts";
import { useTRPC } from "./trpc.ts";

// Public clinic data several features read (login links, scheduling frames, the terms PDF): shared here so no
// feature imports another.

/** This site's clinic settings (branding, result-site links, scheduling frames); they do not change while the app runs. */
export function useClinicSettings() {
  const trpc = useTRPC();
  // The same single fetch the login page uses (clinic-settings.ts).
  return useQuery({
    queryKey: trpc.clinics.settings.queryKey({ clinic: currentClinic().key }),
    queryFn: loadClinicSettings,
    staleTime: Infinity,
  });
}

/** The address of this clinic's terms and conditions PDF. */
export function useTermsDocumentUrl(options: { staleTime?: number } = {}) {
  const trpc = useTRPC();
  return useQuery(trpc.terms.documentUrl.queryOptions({ clinic: currentClinic().key }, options));
}
