import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { PublicShell } from "./public/PublicShell.tsx";
import "./styles/base.css";
import "./styles/components.css";
import "./styles/panels.css";
import "./styles/forms.css";
import "./styles/overlays.css";
import "./styles/header.css";
import "./styles/layout.css";
import "./styles/error-page.css";
import "./styles/auth.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <PublicShell />
  </StrictMode>,
);
