import { useEffect, useState } from "react";
import type { inferRouterOutputs } from "@trpc/server";
import type { AppRouter } from "@server-router";
import { currentClinic } from "./clinic.ts";
import { trpcClient } from "./trpc-client.ts";

// This site's clinic settings (branding, result-site links, scheduling frames), asked once per page load: they do
// not change while the app runs. Plain tRPC client, so the login page reads them without React Query (issue 14);
// clinic-queries.ts serves the same answer to the signed-in app through React Query.

export type ClinicSettings = inferRouterOutputs<AppRouter>["clinics"]["settings"];

let settings: Promise<ClinicSettings> | undefined;

/** The settings, fetched on the first call; a failed fetch is tried again on the next call. */
export function loadClinicSettings(): Promise<ClinicSettings> {
  settings ??= trpcClient.clinics.settings.query({ clinic: currentClinic().key }).catch((error: unknown) => {
    settings = undefined;
    throw error;
  });
  return settings;
}

/** The settings once they arrived (null before, and after a failure). */
export function useLoadedClinicSettings(): ClinicSettings | null {
  const [loaded, setLoaded] = useState<ClinicSettings | null>(null);
  useEffect(() => {
    let current = true;
    loadClinicSettings().then(
      (value) => current && setLoaded(value),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, []);
  return loaded;
}
