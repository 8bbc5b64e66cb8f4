import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { preloadPageAt } from "./app/pages.ts";
import { prepareAnnouncer } from "./lib/announcer.ts";
import { getToken } from "./lib/plain-storage.ts";
import { askSessionEarly } from "./lib/session-questions.ts";
import { PublicShell, publicPagePath } from "./public/PublicShell.tsx";
import "./styles/base.css";
import "./styles/components.css";
import "./styles/panels.css";
import "./styles/forms.css";
import "./styles/overlays.css";
import "./styles/header.css";
import "./styles/layout.css";
import "./styles/error-page.css";
import "./styles/auth.css";

// A signed-in page: its guard's questions to the server, and the page's own code, go out now, while the app's code
// downloads.
if (publicPagePath(window.location.pathname) === null && getToken()) {
  askSessionEarly(window.location.pathname);
  preloadPageAt(window.location.pathname);
}

prepareAnnouncer();
createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <PublicShell />
  </StrictMode>,
);
