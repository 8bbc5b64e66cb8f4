import { useEffect, useState, type FormEvent } from "react";
import type { UserDto } from "@contract/users.dto.ts";
import { Banner } from "../../components/ui/Banner.tsx";
import { Button } from "../../components/ui/Button.tsx";
import { TextField } from "../../components/ui/TextField.tsx";
import { announce, asSentences } from "../../lib/announcer.ts";
import { errorMessage } from "../../lib/trpc-client.ts";
import { useVerifyOtp } from "./api/auth.api.ts";

const CODE_INVALID = "El código de verificación no es válido o ya fue utilizado";
const TITLE = "Verificación en dos pasos";
const INTRO = "Ingrese el código de 6 dígitos que muestra su aplicación de autenticación, o uno de sus códigos de recuperación.";

export interface SecondFactorStepProps {
  /** The first step's token: it reaches only this call, and is never stored as the session's. */
  pendingToken: string;
  onVerified(session: { user: UserDto; accessToken: string }): void | Promise<void>;
  onCancel(): void;
}

/**
 * 'Verificación en dos pasos' (issue 27): after the RUT and password of an account with a second factor, the 6-digit
 * code of the authenticator app, or one of the recovery codes, in the same field.
 */
export function SecondFactorStep({ pendingToken, onVerified, onCancel }: SecondFactorStepProps) {
  const [code, setCode] = useState("");
  const [failure, setFailure] = useState<string | null>(null);
  // The step replaces the form whose field had the focus: Orca moves to the code's field in silence (docs/accesibilidad.md,
  // 'Revisión con lector de pantalla (Orca)'), so the step says what it is.
  useEffect(() => announce(asSentences(TITLE, INTRO)), []);
  const verify = useVerifyOtp(pendingToken, {
    onSuccess: (session) => onVerified(session),
    onError: (error) => setFailure(errorMessage(error, CODE_INVALID)),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (verify.isPending) return;
    if (!code.trim()) return setFailure("Ingrese el código de verificación");
    setFailure(null);
    verify.mutate(code.trim());
  }

  return (
    <form className="form" onSubmit={submit} noValidate>
      <h2 className="auth__title">{TITLE}</h2>
      <p className="auth__intro">{INTRO}</p>
      {failure ? <Banner onClose={() => setFailure(null)}>{failure}</Banner> : null}
      <TextField
        label="Código de verificación"
        autoComplete="one-time-code"
        inputMode="text"
        maxLength={20}
        autoFocus
        value={code}
        onChange={(event) => setCode(event.target.value)}
      />
      <Button type="submit" block disabled={verify.isPending}>
        Verificar
      </Button>
      <Button type="button" variant="secondary" block onClick={onCancel}>
        Volver
      </Button>
    </form>
  );
}
