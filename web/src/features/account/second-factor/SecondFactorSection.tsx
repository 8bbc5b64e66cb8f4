import { useState } from "react";
import { Button } from "../../../components/ui/Button.tsx";
import { formatChileDateTime } from "../../../lib/dates.ts";
import { useSecondFactorStatus } from "../api/second-factor.api.ts";
import { SecondFactorSetup } from "./SecondFactorSetup.tsx";

/**
 * 'Verificación en dos pasos' in 'Mi cuenta' (issue 27): whether it is on and how many recovery codes are left; a
 * person without it (patients, for whom it is optional) can set it up here.
 */
export function SecondFactorSection() {
  const status = useSecondFactorStatus();
  const [settingUp, setSettingUp] = useState(false);
  const data = status.data;
  if (!data) return null;
  return (
    <section className="second-factor-section" aria-labelledby="second-factor-title">
      <h2 id="second-factor-title">Verificación en dos pasos</h2>
      {data.enabled ? (
        <p>
          Activa desde {data.enabledAt ? formatChileDateTime(data.enabledAt) : "—"}. Le quedan {data.recoveryCodesLeft} códigos de
          recuperación sin usar.
        </p>
      ) : settingUp ? (
        <SecondFactorSetup
          onDone={() => {
            setSettingUp(false);
            void status.refetch();
          }}
        />
      ) : (
        <>
          <p>Además de la contraseña, pida un código de una aplicación de autenticación de su teléfono al ingresar.</p>
          <Button variant="secondary" onClick={() => setSettingUp(true)}>
            Activar verificación en dos pasos
          </Button>
        </>
      )}
    </section>
  );
}
