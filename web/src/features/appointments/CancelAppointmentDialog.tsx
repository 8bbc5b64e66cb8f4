import type { AppointmentDto } from "@contract/appointments.dto.ts";
import { Dialog } from "../../components/ui/Dialog.tsx";
import { changeFailureMessage, useCancelAppointment } from "./api/appointments.api.ts";

/** The appointment in words, as the confirmation names it: "el 03-12-2026 a las 10:30 con Dra. Soto (Cardiología)". */
export function appointmentInWords(appointment: AppointmentDto): string {
  const who = appointment.professional ? ` con ${appointment.professional}` : "";
  const what = appointment.specialty ? ` (${appointment.specialty})` : "";
  const where = appointment.place.name ? `, en ${appointment.place.name}` : "";
  return `el ${appointment.date} a las ${appointment.time}${who}${what}${where}`;
}

/**
 * 'Anular hora': the confirmation names the appointment; 'Sí, anular la hora' asks the agenda. A refusal (inside the
 * clinic's cancellation window, or the hour changed meanwhile) is told here, in the server's words, and the dialog
 * stays open until the patient closes it.
 */
export function CancelAppointmentDialog({ appointment, onClose }: { appointment: AppointmentDto; onClose(): void }) {
  const cancel = useCancelAppointment();
  const refused = cancel.isError ? changeFailureMessage(cancel.error) : null;
  return (
    <Dialog
      className="modal"
      labelledBy="cancel-appointment-title"
      describedBy="cancel-appointment-body"
      initialFocus=".modal__actions button:first-child"
      onClose={onClose}
    >
      <h2 id="cancel-appointment-title" className="modal__title">
        ¿Anular esta hora?
      </h2>
      <p id="cancel-appointment-body" className="modal__body">
        Va a anular su hora {appointmentInWords(appointment)}. La hora quedará libre para otro paciente.
      </p>
      {refused ? (
        <p className="appointment-refusal" role="alert">
          {refused}
        </p>
      ) : null}
      <div className="modal__actions">
        <button type="button" className="btn btn--secondary" onClick={onClose}>
          Volver
        </button>
        {refused ? null : (
          <button
            type="button"
            className="btn btn--danger"
            disabled={cancel.isPending}
            aria-busy={cancel.isPending}
            onClick={() => cancel.mutate({ id: appointment.id }, { onSuccess: onClose })}
          >
            {cancel.isPending ? "Anulando…" : "Sí, anular la hora"}
          </button>
        )}
      </div>
    </Dialog>
  );
}
