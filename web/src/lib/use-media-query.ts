import { useSyncExternalStore } from "react";

/** SPEC §9 breakpoints. */
export const breakpoints = {
  /** Under 1024 px a screen is mobile (and the login switches layout). */
  mobile: "(max-width: 1023.98px)",
  /** At 1000 px or less the sidebar collapses to icons. */
  sidebarCollapsed: "(max-width: 1000px)",
  /** Under 435 px: small mobile. */
  smallMobile: "(max-width: 434.98px)",
} as const;

/** True while the media query matches; follows window resizes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
  );
}

/** SPEC §2: a screen under 1024 px wide is treated as mobile. */
export function useIsMobile(): boolean {
  return useMediaQuery(breakpoints.mobile);
}
