import { useEffect, useState } from "react";
import { useNavigate } from "react-router";
import type { UserDto } from "@contract/users.dto.ts";
import { showModal } from "../../lib/overlay-store.ts";
import { Card } from "../../components/ui/Card.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { useSessionUser } from "../../lib/session.ts";
import { PasswordForm } from "./PasswordForm.tsx";
import "./account.css";

const SECOND_FACTOR = "/admin/second-factor";

/**
 * /admin/change-password: staff accounts start with a temporary password sent by e-mail; the admin guard keeps
 * them here until they choose their own (the server refuses them the staff endpoints meanwhile).
 */
export default function StaffPasswordChangePage() {
  const { user, setUser } = useSessionUser();
  const navigate = useNavigate();
  const [firstLogin] = useState(() => user !== null && !user.hasChangedPassword);

  useEffect(() => {
    if (firstLogin)
      // SPEC §4 quotes 'debes cambiar tu contraseña' for a patient's first login; staff get the portal's usted (issue 33).
      void showModal({ title: "¡Bienvenido!", body: "Antes de comenzar, debe cambiar su contraseña", buttons: ["Entendido"] });
  }, [firstLogin]);

  function changed(updated: UserDto) {
    setUser({ ...updated, hasChangedPassword: true });
    // Then the second factor (issue 27): its page goes on to the staff home when it is already set up.
    if (firstLogin) navigate(SECOND_FACTOR);
  }

  return (
    <div className="account-page">
      <PageTitle title="Cambiar contraseña" subtitle={firstLogin ? "Su cuenta tiene una contraseña temporal" : undefined} />
      <Card>{user ? <PasswordForm rut={user.rut} onChanged={changed} /> : null}</Card>
    </div>
  );
}
