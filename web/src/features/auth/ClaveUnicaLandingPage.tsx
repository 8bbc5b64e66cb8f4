import { useEffect } from "react";
import { portalTypeFor } from "@contract/roles.ts";
import { useNavigateTo } from "../../lib/navigation.tsx";
import { setClaveUnicaSuggested, setSignInMethod } from "../../lib/plain-storage.ts";
import { takeClaveUnicaSession } from "./api/claveunica.api.ts";
import { AuthLayout } from "./AuthLayout.tsx";

/**
 * /claveunica/listo: where the server sends the browser back from ClaveÚnica (issue 43). It picks up the session the
 * callback started and goes on like a password login: the terms first for a patient who has not accepted them, else the
 * page the patient was going to (or the dashboard). Without a session to pick up, back to /login with the reason.
 */
export default function ClaveUnicaLandingPage() {
  const navigate = useNavigateTo();
  useEffect(() => {
    let live = true;
    void (async () => {
      const session = await takeClaveUnicaSession();
      if (!live) return;
      if (!session) return navigate("/login?claveunica=sin-sesion");
      const { startSession } = await import("../../lib/session.ts");
      startSession(session.user, session.accessToken, portalTypeFor(session.user.roleType));
      // The server records it on the session too; the web shows the journey it allows (no temporary-password change).
      setSignInMethod("claveunica");
      setClaveUnicaSuggested(session.suggested);
      navigate(session.user.dateTyc ? session.next : "/accept-tyc");
    })();
    return () => {
      live = false;
    };
  }, [navigate]);
  return (
    <AuthLayout>
      <h1 className="auth__title">Ingresando con ClaveÚnica</h1>
      <p className="auth__intro" role="status">
        Estamos iniciando su sesión. Espere un momento.
      </p>
    </AuthLayout>
  );
}
