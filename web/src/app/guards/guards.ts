import { redirect, type LoaderFunctionArgs, type ShouldRevalidateFunctionArgs } from "react-router";
import { isProfileComplete } from "@contract/profile.ts";
import { showIncompleteProfileModal } from "../../features/account/incomplete-profile.ts";
import { primeMyCaregiverLinks } from "../../features/caregivers/api/caregivers.api.ts";
import { hiddenPageRedirect } from "../../lib/hidden-pages.ts";
import { currentClinic } from "../../lib/clinic.ts";
import { endSession } from "../../lib/session.ts";
import { getPortalType, getStoredUser, getToken } from "../../lib/storage.ts";
import { askTermsAccepted, askTokenValid, askWhySessionRefused, takeEarlyAnswers } from "../../lib/session-questions.ts";
import { showModal, showToast } from "../../lib/overlay-store.ts";
import { sessionEndedElsewhereMessage } from "@contract/session.ts";

// Route guards of SPEC §4, as loaders: they run before a guarded page renders, so nothing protected flashes.

export type Area = "dashboard" | "admin";

const staffPasswordPath = "/admin/change-password";

export const areaHome: Record<Area, string> = { dashboard: "/dashboard/account-settings", admin: "/admin/admin-users" };

const isStaffPortal = (portalType: string | null) => portalType === "0" || portalType === "1";

async function requireValidToken(tokenValid: Promise<boolean>): Promise<void> {
  if (!(await tokenValid)) {
    // A session ended from another of the person's devices is said so on the login (issue 45 §3).
    const why = getToken() ? await askWhySessionRefused() : null;
    endSession();
    if (why === sessionEndedElsewhereMessage) showToast(why, { priority: true });
    throw redirect("/login");
  }
}

/** accept-tyc: a valid token is enough. */
export async function tokenGuard(): Promise<null> {
  await requireValidToken(takeEarlyAnswers()?.tokenValid ?? askTokenValid());
  return null;
}

/**
 * /dashboard and /admin, in SPEC §4's order: a valid token; for patients accepted terms (asked to the server); the
 * portal type ('0'/'1' → admin, '2' → dashboard); staff past their temporary password; for patients, outside
 * account-settings, a complete profile, and a page their clinic's menu shows.
 */
export function areaGuard(area: Area) {
  return async ({ request }: LoaderFunctionArgs): Promise<null> => {
    const portalType = getPortalType();
    // The token and the terms questions go out together (one round trip on every page load, not two; on a first
    // load already asked by the public shell; issue 14), and are judged in SPEC §4's order: an invalid token sends to
    // the login whatever the terms answer.
    const early = takeEarlyAnswers();
    const terms = portalType === "2" ? (early?.termsAccepted ?? askTermsAccepted()) : Promise.resolve(true);
    // 'Ver como:' tops every patient page: its links are asked alongside, and the page waits for them (no layout shift).
    const caregiverLinks = portalType === "2" ? primeMyCaregiverLinks(early?.caregiverLinks) : undefined;
    await requireValidToken(early?.tokenValid ?? askTokenValid());
    // Second guard (SPEC §4): a patient who has not accepted the terms goes to accept-tyc; the server decides.
    if (!(await terms)) throw redirect("/accept-tyc");
    const allowed = area === "admin" ? isStaffPortal(portalType) : portalType === "2";
    if (!allowed) {
      void showModal({ title: "Acceso denegado", body: "No tiene permiso para acceder a esta página", buttons: ["Entendido"] });
      if (isStaffPortal(portalType)) throw redirect(areaHome.admin);
      if (portalType === "2") throw redirect(areaHome.dashboard);
      // No valid portal type (storage altered): the patient home would deny it again, so start over at the login.
      endSession();
      throw redirect("/login");
    }
    const path = new URL(request.url).pathname.replace(/\/+$/, "");
    // Staff accounts start with a mailed temporary password: nothing else until they choose their own.
    if (area === "admin" && getStoredUser()?.hasChangedPassword === false && path !== staffPasswordPath) throw redirect(staffPasswordPath);
    if (area === "dashboard") {
      const user = getStoredUser();
      const isHome = path === areaHome.dashboard || path === "/dashboard";
      if (!isHome && !isProfileComplete(user ?? {})) {
        showIncompleteProfileModal();
        throw redirect(areaHome.dashboard);
      }
      // A page the clinic's menu hides (hospital bills on Maitenes) is not reachable by address either.
      const hidden = hiddenPageRedirect(portalType, currentClinic().key, path);
      if (hidden) throw redirect(hidden);
      await caregiverLinks;
    }
    return null;
  };
}

/** The area guard runs again on every move between pages of the area, like a guard on each route. */
export function revalidateOnPathChange({ currentUrl, nextUrl, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs): boolean {
  return currentUrl.pathname !== nextUrl.pathname || defaultShouldRevalidate;
}
