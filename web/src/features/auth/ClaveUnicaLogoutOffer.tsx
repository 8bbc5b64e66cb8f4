import { useEffect, useState } from "react";
import { currentClinic } from "../../lib/clinic.ts";
import { fetchClaveUnicaOptions } from "./api/claveunica.api.ts";

/**
 * After 'Cerrar sesión' of a session that came through ClaveÚnica (issue 43; /login?salida=claveunica): the portal's
 * session is over, but ClaveÚnica's stays open in this browser, and with it the next 'Ingresar con ClaveÚnica' needs no
 * password. The patient decides: on a shared computer they close it too (the provider's end-session address, which
 * brings them back to this /login); on their own phone they may keep it for the State's other services. Not offered
 * when the provider publishes no end-session address.
 */
export function ClaveUnicaLogoutOffer() {
  const clinic = currentClinic().key;
  const [logoutUrl, setLogoutUrl] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void fetchClaveUnicaOptions(clinic).then((options) => {
      if (live) setLogoutUrl(options.logoutUrl);
    });
    return () => {
      live = false;
    };
  }, [clinic]);
  if (!logoutUrl) return null;
  return (
    <section className="claveunica-logout" aria-labelledby="claveunica-logout-title">
      <h2 id="claveunica-logout-title" className="claveunica-logout__title">
        Cerró su sesión en el portal
      </h2>
      <p>Su sesión de ClaveÚnica sigue abierta en este navegador. Si usa un computador compartido, ciérrela también.</p>
      <a className="claveunica__button claveunica__button--outline" href={logoutUrl}>
        Cerrar también su sesión en ClaveÚnica
      </a>
    </section>
  );
}
