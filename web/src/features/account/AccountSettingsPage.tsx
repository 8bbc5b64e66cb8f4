import { useDeferredValue, useEffect, useState, type ReactNode } from "react";
import { isProfileComplete } from "@contract/profile.ts";
import type { UserDto } from "@contract/users.dto.ts";
import { showModal } from "../../lib/overlay-store.ts";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { getSignInMethod } from "../../lib/plain-storage.ts";
import { useSessionUser } from "../../lib/session.ts";
import { AccountSection } from "./AccountSection.tsx";
import { DocumentsTable } from "./DocumentsTable.tsx";
import { showIncompleteProfileModal } from "./incomplete-profile.ts";
import { PasswordForm } from "./PasswordForm.tsx";
import { ProfileForm } from "./ProfileForm.tsx";
import { ActiveSessions } from "./sessions/ActiveSessions.tsx";
import { SecondFactorSection } from "./second-factor/SecondFactorSection.tsx";
import { NoticesSection } from "./NoticesSection.tsx";
import "./account.css";
import { useOwnAccount } from "./api/account.api.ts";

/** Where the first-login journey (and the completion of an incomplete profile) ends. */
export const JOURNEY_END = "/dashboard/scheduling";

/**
 * /dashboard/account-settings, 'Mi cuenta' (SPEC §2, §4): password change, personal data and documents.
 *
 * First login (hasChangedPassword missing or false): the password form alone, open, under the welcome modal; a
 * successful change marks the stored user and opens the data form; saving the data then sends the user to
 * scheduling. Otherwise both forms show, the data open and the password collapsed. `top` (issue 33: what is pending,
 * composed by app/routes/AccountSettingsRoute.tsx) shows under the title, once the first-login password change is done;
 * `bottom` (issue 30: 'Mis cuidadores'; issue 28: the patient's rights over their data) after the account's own sections.
 */
export default function AccountSettingsPage({ top, bottom }: { top?: ReactNode; bottom?: ReactNode } = {}) {
  const { user: storedUser, setUser } = useSessionUser();
  // The stored user refreshed from the server on every visit (gcTime 0: no stale copy can overwrite a newer one).
  const me = useOwnAccount();
  useEffect(() => {
    if (me.data) setUser(me.data);
  }, [me.data, setUser]);

  // The sections under the password mount in a deferred render once the account is here: React renders them in slices
  // that leave the main thread free between them, not in one long task on the answer's arrival (issue 26: 'Mis datos'
  // had 0.7–1.8 s of blocking time on a throttled phone).
  const sectionsReady = useDeferredValue(!me.isPending);
  // Only a signed-in user known to keep the temporary password: a page mounting as its session ends (no stored user)
  // must not welcome them as on a first login (issue 45 §3).
  // A patient who came through ClaveÚnica (issue 43) is not asked for it: the server does not require it of that session.
  const [viaClaveUnica] = useState(() => getSignInMethod() === "claveunica");
  const [firstLogin] = useState(() => storedUser !== null && !storedUser.hasChangedPassword && !viaClaveUnica);
  const [passwordOpen, setPasswordOpen] = useState(firstLogin);
  const [dataOpen, setDataOpen] = useState(true);

  useEffect(() => {
    if (firstLogin)
      void showModal({
        title: "¡Bienvenido al Portal Paciente!",
        body: "Antes de comenzar, debes cambiar tu contraseña",
        buttons: ["Entendido"],
      });
    // A patient landing here with an incomplete profile (e.g. right after login) is told why, as on any other page.
    else if (storedUser && !isProfileComplete(storedUser)) showIncompleteProfileModal();
    // Once, on arrival: later edits of the stored user must not show it again.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [firstLogin]);

  const user = storedUser ?? me.data;
  if (!user) return <PageTitle title="Mi cuenta" subtitle="Configuración de Usuario" />;

  const mustChangePassword = !user.hasChangedPassword && !viaClaveUnica;
  // Saving completes the journey when it began with the first login or the profile is still incomplete.
  const nextPath = firstLogin || !isProfileComplete(user) ? JOURNEY_END : undefined;

  function passwordChanged(changed: UserDto) {
    setUser({ ...changed, hasChangedPassword: true });
    if (firstLogin) {
      setPasswordOpen(false);
      setDataOpen(true);
    }
  }

  return (
    <div className="account-page">
      <PageTitle title="Mi cuenta" subtitle="Configuración de Usuario" />
      {mustChangePassword ? null : top}
      <AccountSection
        title="Cambiar contraseña"
        description={
          mustChangePassword
            ? "Elija una contraseña propia para comenzar a usar el portal."
            : viaClaveUnica && !user.hasChangedPassword
              ? "Si también quiere ingresar con su Rut y contraseña, elija una contraseña propia. Necesitará la contraseña temporal que le enviamos por correo."
              : "Actualice la contraseña con la que ingresa al portal"
        }
        open={passwordOpen}
        onToggle={() => setPasswordOpen((open) => !open)}
      >
        <PasswordForm rut={user.rut} onChanged={passwordChanged} />
      </AccountSection>
      {mustChangePassword || !sectionsReady ? null : (
        <>
          <AccountSection
            title="Datos personales"
            description="Sus datos de contacto y de identificación"
            open={dataOpen}
            onToggle={() => setDataOpen((open) => !open)}
          >
            <ProfileForm
              user={me.data ?? user}
              onSaved={setUser}
              nextPath={nextPath}
              markMissing={!firstLogin && !isProfileComplete(user)}
            />
          </AccountSection>
          <DocumentsTable dateTyc={user.dateTyc} />
          <SecondFactorSection />
          <NoticesSection />
          <ActiveSessions />
          {bottom}
        </>
      )}
    </div>
  );
}
