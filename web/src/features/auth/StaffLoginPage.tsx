import { useNavigateTo } from "../../lib/navigation.tsx";
import { AuthLayout } from "./AuthLayout.tsx";
import { LoginForm } from "./LoginForm.tsx";

/** /admin-login: login of administrators and executives (SPEC §2). */
export default function StaffLoginPage() {
  const navigate = useNavigateTo();
  return (
    <AuthLayout>
      <h1 className="auth__title">Ingreso de Administrativos</h1>
      <p className="auth__intro">Acceso para el personal de la clínica que administra usuarios y cuentas hospitalarias.</p>
      <LoginForm
        portal="staff"
        onLoggedIn={(user, { secondFactorSetup }) =>
          // A temporary password comes first (the admin guard); then the second factor's set-up (issue 27).
          navigate(secondFactorSetup && user.hasChangedPassword ? "/admin/second-factor" : "/admin/admin-users")
        }
      />
      <p className="auth__note">Si aún no tiene una cuenta de acceso, solicite su registro a la administración de su clínica.</p>
    </AuthLayout>
  );
}
