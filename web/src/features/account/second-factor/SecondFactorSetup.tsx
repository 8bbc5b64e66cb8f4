import { useState, type FormEvent } from "react";
import { Banner } from "../../../components/ui/Banner.tsx";
import { Button } from "../../../components/ui/Button.tsx";
import { TextField } from "../../../components/ui/TextField.tsx";
import { announce } from "../../../lib/announcer.ts";
import { errorMessage } from "../../../lib/trpc-client.ts";
import { useConfirmSecondFactor, useStartSecondFactor } from "../api/second-factor.api.ts";

export interface SecondFactorSetupProps {
  /** After the recovery codes were shown and the person goes on. */
  onDone(): void;
}

/**
 * Enrolment of the second factor (issue 27): a QR code for the authenticator app and the same secret written out, for
 * people who cannot scan; a first code activates it; then the ten recovery codes, shown only this once.
 */
export function SecondFactorSetup({ onDone }: SecondFactorSetupProps) {
  const [enrolment, setEnrolment] = useState<{ secret: string; qrSvg: string } | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  const start = useStartSecondFactor({
    onSuccess: (answer) => setEnrolment(answer),
    onError: (error) => setFailure(errorMessage(error, "No se pudo iniciar la configuración")),
  });
  const confirm = useConfirmSecondFactor({
    onSuccess: (answer) => setRecoveryCodes(answer.recoveryCodes),
    onError: (error) => setFailure(errorMessage(error, "El código de verificación no es válido o ya fue utilizado")),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (confirm.isPending) return;
    if (!code.trim()) return setFailure("Ingrese el código de verificación");
    setFailure(null);
    confirm.mutate({ code: code.trim() });
  }

  if (recoveryCodes) return <RecoveryCodes codes={recoveryCodes} onDone={onDone} />;

  return (
    <section className="second-factor" aria-label="Configurar verificación en dos pasos">
      {failure ? <Banner onClose={() => setFailure(null)}>{failure}</Banner> : null}
      {!enrolment ? (
        <>
          <p>
            Para proteger los datos de los pacientes, las cuentas del personal piden además de la contraseña un código de una aplicación de
            autenticación (Google Authenticator, Microsoft Authenticator, FreeOTP u otra).
          </p>
          <Button onClick={() => start.mutate()} disabled={start.isPending}>
            Comenzar
          </Button>
        </>
      ) : (
        <form className="form" onSubmit={submit} noValidate>
          <p>1. Escanee este código QR con su aplicación de autenticación.</p>
          <img
            className="second-factor__qr"
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qrSvg)}`}
            alt="Código QR para la aplicación de autenticación"
            width={200}
            height={200}
          />
          <p>
            Si no puede escanearlo, escriba esta clave en la aplicación:{" "}
            <code className="second-factor__secret" data-testid="second-factor-secret">
              {enrolment.secret}
            </code>
          </p>
          <p>2. Ingrese el código de 6 dígitos que muestra la aplicación.</p>
          <TextField
            label="Código de verificación"
            autoComplete="one-time-code"
            inputMode="numeric"
            maxLength={20}
            value={code}
            onChange={(event) => setCode(event.target.value)}
          />
          <Button type="submit" disabled={confirm.isPending}>
            Activar
          </Button>
        </form>
      )}
    </section>
  );
}

const codesFileName = "codigos-recuperacion-portal-pacientes.txt";

/**
 * The ten recovery codes, shown only this once (issue 45 §9): each on one line (never broken at its hyphen), and kept
 * the way the person prefers: copied, printed (only the codes go to paper) or downloaded as a text file.
 */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const [copyNote, setCopyNote] = useState("");
  const text = codes.join("\n");

  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopyNote("Códigos copiados. Péguelos en un lugar seguro.");
    } catch {
      setCopyNote("No se pudieron copiar. Descárguelos o imprímalos.");
    }
  }

  function download() {
    const header = "Portal Pacientes: códigos de recuperación de la verificación en dos pasos.\nCada código sirve una sola vez.\n\n";
    const url = URL.createObjectURL(new Blob([header, text, "\n"], { type: "text/plain;charset=utf-8" }));
    const anchor = document.createElement("a");
    anchor.href = url;
    anchor.download = codesFileName;
    document.body.appendChild(anchor);
    anchor.click();
    anchor.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    announce("Descarga de los códigos iniciada");
  }

  return (
    <section className="second-factor second-factor--codes" aria-label="Códigos de recuperación">
      <h2>Códigos de recuperación</h2>
      <p>
        La verificación en dos pasos está activa. Guarde estos códigos en un lugar seguro: cada uno sirve una sola vez para ingresar si no
        tiene su teléfono. No se volverán a mostrar.
      </p>
      <ul className="second-factor__codes">
        {codes.map((recovery) => (
          <li key={recovery}>
            <code>{recovery}</code>
          </li>
        ))}
      </ul>
      <div className="second-factor__actions">
        <Button variant="secondary" onClick={() => void copy()}>
          Copiar códigos
        </Button>
        <Button variant="secondary" onClick={download}>
          Descargar
        </Button>
        <Button variant="secondary" onClick={() => window.print()}>
          Imprimir
        </Button>
      </div>
      <p className="second-factor__note" role="status">
        {copyNote}
      </p>
      <Button onClick={onDone}>Continuar</Button>
    </section>
  );
}
