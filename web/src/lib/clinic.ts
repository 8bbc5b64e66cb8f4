import { resolveClinic, type Clinic } from "@contract/clinics.ts";

/** The clinic of this page, from its address (SPEC §1). */
export function currentClinic(): Clinic {
  return resolveClinic(window.location.href);
}

/** The clinic's portal address as the browser sees it (sent as rcrLink). */
export function currentPortalLink(): string {
  return window.location.origin;
}
