import { useState } from "react";
import { currentClinic } from "../../lib/clinic.ts";
import LoginExternalLinks from "./LoginExternalLinks.tsx";
import { patientMenuHasBills } from "../../lib/hidden-pages.ts";
import { AppLink, useNavigateTo, useSearchParam } from "../../lib/navigation.tsx";
import { Banner } from "../../components/ui/Banner.tsx";
import { AuthLayout } from "./AuthLayout.tsx";
import { ClaveUnicaButton } from "./ClaveUnicaButton.tsx";
import { ClaveUnicaLogoutOffer } from "./ClaveUnicaLogoutOffer.tsx";
import { claveUnicaMessage } from "./claveunica-messages.ts";
import { LoginForm } from "./LoginForm.tsx";

/** /login: patient login (SPEC §2), with 'Ingresar con ClaveÚnica' where the portal offers it (issue 43). */
export default function PatientLoginPage() {
  const navigate = useNavigateTo();
  // A sign-in with ClaveÚnica that came back refused: /login?claveunica=<reason>.
  const [claveUnicaRefusal, setClaveUnicaRefusal] = useState(claveUnicaMessage(useSearchParam("claveunica")));
  // 'Cerrar sesión' of a session that came through ClaveÚnica: /login?salida=claveunica.
  const leftClaveUnicaSession = useSearchParam("salida") === "claveunica";
  // The intro names hospital bills only where the clinic's patient menu has them (not on Maitenes).
  const hasBills = patientMenuHasBills(currentClinic().key);
  const intro = hasBills
    ? "Ingrese con su Rut y contraseña para agendar horas, revisar sus exámenes y pagar sus cuentas hospitalarias."
    : "Ingrese con su Rut y contraseña para agendar horas y revisar sus exámenes.";
  return (
    <AuthLayout aside={<LoginExternalLinks />}>
      <h1 className="auth__title">Bienvenido</h1>
      <p className="auth__intro">{intro}</p>
      {leftClaveUnicaSession ? <ClaveUnicaLogoutOffer /> : null}
      {claveUnicaRefusal ? <Banner onClose={() => setClaveUnicaRefusal(null)}>{claveUnicaRefusal}</Banner> : null}
      <LoginForm
        portal="patient"
        onLoggedIn={(user) => navigate(user.dateTyc ? "/dashboard/account-settings" : "/accept-tyc")}
        extra={
          <p className="form__aside">
            <AppLink to="/recover-password">Olvidé mi contraseña</AppLink>
          </p>
        }
      />
      <ClaveUnicaButton />
    </AuthLayout>
  );
}
