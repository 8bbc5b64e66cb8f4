import { useState, type FormEvent } from "react";
import { Banner } from "../../components/ui/Banner.tsx";
import { Button } from "../../components/ui/Button.tsx";
import { Card } from "../../components/ui/Card.tsx";
import { TextField } from "../../components/ui/TextField.tsx";
import { errorMessage } from "../../lib/trpc.ts";
import { useResetSecondFactor } from "./api/users.api.ts";

/**
 * 'Restablecer verificación en dos pasos' (admins only; issue 27): for a person who lost the phone. The reason is
 * required and audited; the person's sessions end and their next login sets the factor up again.
 */
export function SecondFactorResetForm({ userId }: { userId: number }) {
  const [reason, setReason] = useState("");
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const reset = useResetSecondFactor({
    onSuccess: () => {
      setReason("");
      setOutcome({ ok: true, text: "Verificación en dos pasos restablecida. Sus sesiones se cerraron." });
    },
    onError: (error) => setOutcome({ ok: false, text: errorMessage(error, "No se pudo restablecer la verificación en dos pasos") }),
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    if (reset.isPending) return;
    setOutcome(null);
    reset.mutate({ userId, reason });
  }

  return (
    <Card className="users-card">
      <form className="form" aria-label="Restablecer verificación en dos pasos" onSubmit={submit} noValidate>
        <h2>Restablecer verificación en dos pasos</h2>
        <p>Para quien perdió el teléfono: se borran su clave y sus códigos de recuperación y se cierran todas sus sesiones.</p>
        {outcome ? (
          <Banner tone={outcome.ok ? "info" : "error"} onClose={() => setOutcome(null)}>
            {outcome.text}
          </Banner>
        ) : null}
        <TextField label="Motivo" maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
        <Button type="submit" variant="danger" disabled={reset.isPending}>
          Restablecer
        </Button>
      </form>
    </Card>
  );
}
