import { useMutation } from "@tanstack/react-query";
import { showModal } from "./overlay-store.ts";
import { currentClinic } from "./clinic.ts";
import { useTRPC } from "./trpc.ts";

// What the laboratory and imaging screens share: the SPEC §8 texts, and opening or e-mailing a report.

/** SPEC §8: failures of the laboratory and imaging lists and details, and of e-mail sending. */
export const RESULTS_ERROR_MESSAGE = "Hubo un error al procesar la solicitud, por favor intente más tarde";

/** Opens a report PDF (a signed portal link) in a new tab. */
export function openReport(url: string): void {
  window.open(url, "_blank", "noopener");
}

/**
 * 'Enviar por email': mails the report to the user's stored address; 'Email enviado' on success, the toast on failure.
 * Answers whether it was sent, so the row can tell a failure beside its button (components/ui/ActionFailure.tsx).
 */
export function useMailReport() {
  const trpc = useTRPC();
  const mail = useMutation(trpc.reports.mail.mutationOptions({ meta: { errorToast: RESULTS_ERROR_MESSAGE } }));
  return async (documentLink: string): Promise<boolean> => {
    try {
      await mail.mutateAsync({ documentLink, clinic: currentClinic().key });
    } catch {
      // The toast is the mail call's meta.errorToast.
      return false;
    }
    void showModal({ title: "Email enviado", body: "Hemos enviado el informe a tu dirección de correo electrónico." });
    return true;
  };
}
