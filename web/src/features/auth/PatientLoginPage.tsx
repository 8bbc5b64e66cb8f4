import { Link, useNavigate } from "react-router";
import LoginExternalLinks from "../clinic/LoginExternalLinks.tsx";
import { AuthLayout } from "./AuthLayout.tsx";
import { LoginForm } from "./LoginForm.tsx";

/** /login: patient login (SPEC §2). */
export default function PatientLoginPage() {
  const navigate = useNavigate();
  return (
    <AuthLayout aside={<LoginExternalLinks />}>
      <h1 className="auth__title">Bienvenido</h1>
      <p className="auth__intro">Ingrese con su Rut y contraseña para agendar horas, revisar sus exámenes y pagar sus cuentas hospitalarias.</p>
      <LoginForm
        portal="patient"
        onLoggedIn={(user) => void navigate(user.dateTyc ? "/dashboard/account-settings" : "/accept-tyc")}
        extra={
          <p className="form__aside">
            <Link to="/recover-password">Olvidé mi contraseña</Link>
          </p>
        }
      />
    </AuthLayout>
  );
}
