import { rightsRequestKindLabels, rightsRequestStatusLabels, type RightsRequestDto } from "../../contract/data-rights.schemas.ts";
import { sendAccountNotice } from "../../lib/account-notices.ts";
import { formatChileDay } from "../../lib/chile-time.ts";
import type { AppDeps } from "../../deps.ts";
import { escapeHtml, type MailMessage } from "../../providers/mail/mail.provider.ts";

// The mail a patient gets on every change of one of their requests ('Solicitudes', issue 28). They asked for these,
// so an opposition to e-mail notices does not stop them. Sent through providers.mail: the durable queue when it is on.

type RequestForMail = Pick<RightsRequestDto, "id" | "kind" | "status" | "rejectionReason" | "dueAt"> &
  Partial<Pick<RightsRequestDto, "resolution">>;

export function rightsRequestMail(to: string, request: RequestForMail): MailMessage {
  const kind = rightsRequestKindLabels[request.kind];
  const status = rightsRequestStatusLabels[request.status];
  const paragraphs = [
    "Hola:",
    request.status === "received"
      ? `Recibimos su solicitud N° ${request.id} (${kind}). La clínica le responderá a más tardar el ${formatChileDay(new Date(request.dueAt))}.`
      : `Su solicitud N° ${request.id} (${kind}) cambió a: ${status}.`,
    ...(request.status === "rejected" && request.rejectionReason ? [`Motivo: ${request.rejectionReason}`] : []),
    // What was done (issue 45 §5): the datum a rectification changed, or staff's note; a rejected one changed nothing.
    ...(request.status === "resolved" && request.resolution ? [request.resolution] : []),
    ...(request.status === "rejected" && request.kind === "rectification" ? ["No se cambió ningún dato."] : []),
    ...(request.status === "resolved" && request.kind === "account_closure"
      ? [
          "Su cuenta del Portal Pacientes quedó cerrada y sus datos de contacto fueron borrados del portal. Su ficha clínica sigue en la clínica, como exige la ley.",
        ]
      : []),
    "Puede ver sus solicitudes en 'Mis datos', sección 'Solicitudes'.",
  ];
  return {
    to,
    subject: `Portal Pacientes - Solicitud N° ${request.id}: ${status}`,
    text: paragraphs.join("\n\n"),
    html: paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join(""),
  };
}

/** Sends the mail after the answer; nothing to send to an account without an address. */
export function sendRightsRequestMail(deps: Pick<AppDeps, "providers" | "background">, to: string, request: RequestForMail): void {
  if (to) sendAccountNotice(deps, rightsRequestMail(to, request), "rights-request");
}
