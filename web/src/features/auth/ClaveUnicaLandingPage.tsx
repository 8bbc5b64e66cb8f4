import { useCallback, useEffect, useState } from "react";
import { portalTypeFor } from "@contract/roles.ts";
import { useNavigateTo } from "../../lib/navigation.tsx";
import { setClaveUnicaSuggested, setSignInMethod } from "../../lib/plain-storage.ts";
import { takeClaveUnicaSession, type ClaveUnicaSession } from "./api/claveunica.api.ts";
import { AuthLayout } from "./AuthLayout.tsx";
import { SecondFactorStep } from "./SecondFactorStep.tsx";

/**
 * /claveunica/listo: where the server sends the browser back from ClaveÚnica (issue 43). It picks up the session the
 * callback started and goes on like a password login: the terms first for a patient who has not accepted them, else the
 * page the patient was going to (or the dashboard); a patient with a second factor gives the code first. Without a
 * session to pick up, back to /login with the reason.
 */
export default function ClaveUnicaLandingPage() {
  const navigate = useNavigateTo();
  // A patient with a second factor: ClaveÚnica's token reaches only the second step until the code is given.
  const [pending, setPending] = useState<ClaveUnicaSession | null>(null);
  const finish = useCallback(
    async (session: Pick<ClaveUnicaSession, "user" | "accessToken" | "suggested" | "next">) => {
      const { startSession } = await import("../../lib/session.ts");
      startSession(session.user, session.accessToken, portalTypeFor(session.user.roleType));
      // The server records it on the session too; the web shows the journey it allows (no temporary-password change).
      setSignInMethod("claveunica");
      setClaveUnicaSuggested(session.suggested);
      navigate(session.user.dateTyc ? session.next : "/accept-tyc");
    },
    [navigate],
  );
  useEffect(() => {
    let live = true;
    void (async () => {
      const session = await takeClaveUnicaSession();
      if (!live) return;
      if (!session) return navigate("/login?claveunica=sin-sesion");
      if (session.secondFactor === "verify") return setPending(session);
      await finish(session);
    })();
    return () => {
      live = false;
    };
  }, [navigate, finish]);
  if (pending)
    return (
      <AuthLayout>
        <SecondFactorStep
          pendingToken={pending.accessToken}
          onVerified={({ user, accessToken }) => finish({ ...pending, user, accessToken })}
          onCancel={() => navigate("/login")}
        />
      </AuthLayout>
    );
  return (
    <AuthLayout>
      <h1 className="auth__title">Ingresando con ClaveÚnica</h1>
      <p className="auth__intro" role="status">
        Estamos iniciando su sesión. Espere un momento.
      </p>
    </AuthLayout>
  );
}
