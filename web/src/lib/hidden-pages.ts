import type { ClinicKey } from "@contract/clinics.ts";
import { menuFor } from "@contract/menu.ts";

/** Where a patient lands when they open a page their clinic's menu hides. */
export const HIDDEN_PAGE_FALLBACK = "/dashboard/scheduling";

/**
 * The page a user should be sent to instead of `pathname`, when that page is one their clinic's menu hides (e.g.
 * /dashboard/my-bills on Maitenes); null when the page may be shown. Meant for the /dashboard route guard.
 */
export function hiddenPageRedirect(portalType: string | null | undefined, clinicKey: ClinicKey, pathname: string): string | null {
  const hidden = menuFor(portalType, clinicKey, pathname).some((item) => item.selected && item.hide);
  return hidden ? HIDDEN_PAGE_FALLBACK : null;
}

/** Whether the patients' menu of `clinicKey` has 'Cuentas hospitalarias' (SPEC §2: some clinics issue no bills here). */
export function patientMenuHasBills(clinicKey: ClinicKey): boolean {
  return hiddenPageRedirect("2", clinicKey, "/dashboard/my-bills") === null;
}
