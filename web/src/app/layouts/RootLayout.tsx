import { Outlet, ScrollRestoration } from "react-router";

/** Root of every route: the page and the browser's scroll restoration. The overlays live outside the router (App). */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}
