import { useEffect, useState } from "react";
import { currentClinic } from "../../lib/clinic.ts";
import { fetchClaveUnicaOptions } from "./api/claveunica.api.ts";

/** The page the patient was going to, when the login was opened with ?next= (the server keeps only local paths). */
function nextQuery(): string {
  const next = new URLSearchParams(window.location.search).get("next");
  return next ? `&next=${encodeURIComponent(next)}` : "";
}

/**
 * 'Ingresar con ClaveÚnica' (issue 43), in ClaveÚnica's own style (blue #0F69C4, white text), shown only when the
 * portal offers it. A plain link: the server's /claveunica/ingresar sends the browser on to the State's provider.
 */
export function ClaveUnicaButton() {
  const clinic = currentClinic().key;
  // null while the server is asked: the block keeps its place, unseen, so the page below does not jump when it shows.
  const [enabled, setEnabled] = useState<boolean | null>(null);
  useEffect(() => {
    let live = true;
    void fetchClaveUnicaOptions(clinic).then((options) => {
      if (live) setEnabled(options.enabled);
    });
    return () => {
      live = false;
    };
  }, [clinic]);
  if (enabled === false) return null;
  return (
    <div className={enabled ? "claveunica" : "claveunica claveunica--pending"}>
      <p className="claveunica__or">o</p>
      <a className="claveunica__button" href={`/claveunica/ingresar?clinic=${encodeURIComponent(clinic)}${nextQuery()}`}>
        <svg className="claveunica__icon" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" focusable="false">
          <circle cx="8" cy="12" r="4.5" fill="none" stroke="currentColor" strokeWidth="2" />
          <path d="M12.5 12H21M17.5 12v3.5M20.5 12v2.5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
        </svg>
        <span>Ingresar con ClaveÚnica</span>
      </a>
    </div>
  );
}
