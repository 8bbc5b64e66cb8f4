import { Button } from "../../components/ui/Button.tsx";
import { Card } from "../../components/ui/Card.tsx";
import { currentPortalLink } from "../../lib/clinic.ts";
import { showModal } from "../../lib/overlay-store.ts";
import { useSendResetLink } from "./api/users.api.ts";

/**
 * Beside SPEC's password form on 'Modificación de usuario' (issue 33): 'Enviar enlace para restablecer contraseña'
 * e-mails the user the recovery link of this clinic's portal, so staff need not invent a password.
 */
export function SendResetLink({ userId }: { userId: number }) {
  const send = useSendResetLink();
  function sendLink() {
    send.mutate(
      { id: userId, rcrLink: currentPortalLink() },
      {
        onSuccess: ({ email }) =>
          void showModal({
            title: "Enlace enviado",
            body: `Se envió un enlace para restablecer la contraseña al correo ${email}. El usuario elegirá su nueva contraseña.`,
            buttons: ["Entendido"],
          }),
      },
    );
  }
  return (
    <Card title="Restablecer contraseña por correo" className="users-card">
      <p>El usuario recibirá un correo con un enlace para crear una nueva contraseña. Usted no necesita conocerla.</p>
      <Button variant="secondary" onClick={sendLink} disabled={send.isPending}>
        Enviar enlace para restablecer contraseña
      </Button>
    </Card>
  );
}
