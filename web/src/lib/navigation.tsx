import { createContext, useContext, type AnchorHTMLAttributes, type MouseEvent } from "react";

// How the pages shared by the public shell (web/src/public) and the router app move between addresses. The public
// pages use these instead of react-router's hooks, so their first load does not carry the router (issue 14): the
// router app provides react-router's navigate (RootLayout), the public shell its own (PublicApp).

export type Navigate = (to: string) => void;

const NavigationContext = createContext<Navigate>((to) => window.location.assign(to));

export const NavigationProvider = NavigationContext.Provider;

/** Moves to another address of the portal (like react-router's useNavigate()). */
export function useNavigateTo(): Navigate {
  return useContext(NavigationContext);
}

/** The query string value of the current address (read when the page renders). */
export function useSearchParam(name: string): string | null {
  return new URLSearchParams(window.location.search).get(name);
}

/** A link inside the portal: a real href (new tab, copy link) that navigates in place on a plain click. */
export function AppLink({ to, onClick, ...props }: { to: string } & AnchorHTMLAttributes<HTMLAnchorElement>) {
  const navigate = useNavigateTo();
  function follow(event: MouseEvent<HTMLAnchorElement>) {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  }
  return <a href={to} onClick={follow} {...props} />;
}
