import { useState, type ReactNode } from "react";
import { Link } from "react-router";
import type { AppointmentDto } from "@contract/appointments.dto.ts";
import { useActionFailures } from "../../components/ui/ActionFailure.tsx";
import { Button } from "../../components/ui/Button.tsx";
import { RefreshButton } from "../../components/ui/RefreshButton.tsx";
import { Card } from "../../components/ui/Card.tsx";
import { LoadFailure } from "../../components/ui/LoadFailure.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { formatChileDateTime } from "../../lib/dates.ts";
import { APPOINTMENTS_LIST_FAILED, useAppointments, useConfirmAppointment, useDownloadCalendar } from "./api/appointments.api.ts";
import { CancelAppointmentDialog } from "./CancelAppointmentDialog.tsx";
import "./appointments.css";

const statusClass: Record<AppointmentDto["status"], string> = {
  Reservada: "booked",
  Confirmada: "confirmed",
  Anulada: "cancelled",
  Realizada: "done",
  "No asistió": "noshow",
};

function CancelNote({ appointment }: { appointment: AppointmentDto }) {
  if (!appointment.cancelUntil) return null;
  const until = formatChileDateTime(appointment.cancelUntil);
  return (
    <p className="appointment-card__note">
      {appointment.canCancel
        ? `Puede anularla en el portal hasta el ${until}.`
        : `El plazo para anularla en el portal terminó el ${until}. Para anularla, comuníquese con la clínica.`}
    </p>
  );
}

interface CardActions {
  onCancel(appointment: AppointmentDto): void;
  confirming: string | null;
  onConfirm(appointment: AppointmentDto): void;
  onCalendar(appointment: AppointmentDto): void;
  failureOf(appointment: AppointmentDto): ReactNode;
}

function AppointmentCard({ appointment, actions }: { appointment: AppointmentDto; actions: CardActions }) {
  const when = `${appointment.date} ${appointment.time}`;
  const place = [appointment.place.name, appointment.place.clinic, appointment.place.address].filter(Boolean).join(" · ");
  const open = appointment.cancelUntil !== null;
  return (
    <li
      className="appointment-card"
      data-appointment-id={appointment.id}
      aria-label={`Hora del ${appointment.date} a las ${appointment.time}`}
    >
      <div className="appointment-card__head">
        <p className="appointment-card__when">{when}</p>
        <span className={`appointment-status appointment-status--${statusClass[appointment.status]}`}>{appointment.status}</span>
      </div>
      <dl className="appointment-card__details">
        <dt>Profesional</dt>
        <dd>{appointment.professional ?? "Sin información"}</dd>
        <dt>Especialidad</dt>
        <dd>{appointment.specialty ?? "Sin información"}</dd>
        <dt>Lugar</dt>
        <dd>{place || "Sin información"}</dd>
        <dt>Estado</dt>
        <dd>{appointment.status}</dd>
      </dl>
      <CancelNote appointment={appointment} />
      {appointment.upcoming && appointment.status !== "Anulada" ? (
        <div className="appointment-card__actions">
          {appointment.canConfirm ? (
            <Button
              variant="primary"
              disabled={actions.confirming === appointment.id}
              aria-busy={actions.confirming === appointment.id}
              onClick={() => actions.onConfirm(appointment)}
            >
              Confirmar asistencia
            </Button>
          ) : null}
          <Button variant="secondary" onClick={() => actions.onCalendar(appointment)}>
            Agregar a mi calendario
          </Button>
          {open ? (
            <Button variant="danger" onClick={() => actions.onCancel(appointment)}>
              Anular hora
            </Button>
          ) : null}
        </div>
      ) : null}
      {actions.failureOf(appointment)}
    </li>
  );
}

/**
 * 'Mis citas' (issue 44): the patient's appointments in the clinics' agenda, upcoming first then past ones, each with
 * its date and time in Chile's time, professional, specialty, place and status in the patient's words. Upcoming ones
 * offer 'Confirmar asistencia', 'Agregar a mi calendario' (an iCalendar file) and 'Anular hora' with a confirmation.
 */
export default function AppointmentsPage() {
  const { query: list, refresh } = useAppointments();
  const confirm = useConfirmAppointment();
  const downloadCalendar = useDownloadCalendar();
  const calendarFailures = useActionFailures(APPOINTMENTS_LIST_FAILED);
  const [cancelling, setCancelling] = useState<AppointmentDto | null>(null);

  const actions: CardActions = {
    onCancel: setCancelling,
    confirming: confirm.isPending ? (confirm.variables?.id ?? null) : null,
    onConfirm: (appointment) => confirm.mutate({ id: appointment.id }),
    onCalendar: (appointment) =>
      void calendarFailures.attempt(
        appointment.id,
        `No se pudo descargar el archivo de calendario de la hora del ${appointment.date}.`,
        () => downloadCalendar(appointment.id),
      ),
    failureOf: (appointment) => calendarFailures.messageFor(appointment.id),
  };
  const appointments = list.data ?? [];
  const upcoming = appointments.filter((appointment) => appointment.upcoming);
  const past = appointments.filter((appointment) => !appointment.upcoming);

  return (
    <div className="appointments-page">
      <PageTitle title="Mis citas" subtitle="Sus horas en las clínicas de la red: las próximas primero y luego las pasadas." />
      {list.data ? <RefreshButton onRefresh={refresh} busy={list.isFetching} /> : null}
      {list.isError ? (
        <Card>
          <LoadFailure service="agenda" toast={APPOINTMENTS_LIST_FAILED} onRetry={() => void list.refetch()} retrying={list.isFetching} />
        </Card>
      ) : !list.data ? (
        <Card>
          <p className="appointments-empty" aria-busy="true">
            Cargando sus horas…
          </p>
        </Card>
      ) : appointments.length === 0 ? (
        <Card>
          <p className="appointments-empty">
            No tiene horas reservadas ni atenciones en los últimos 12 meses. Para reservar una hora, vaya a{" "}
            <Link to="/dashboard/scheduling">Agendamiento</Link>.
          </p>
        </Card>
      ) : (
        <>
          <Card title="Próximas horas">
            {upcoming.length ? (
              <ul className="appointment-list" aria-label="Próximas horas">
                {upcoming.map((appointment) => (
                  <AppointmentCard key={appointment.id} appointment={appointment} actions={actions} />
                ))}
              </ul>
            ) : (
              <p className="appointments-empty">
                No tiene horas próximas. Para reservar una, vaya a <Link to="/dashboard/scheduling">Agendamiento</Link>.
              </p>
            )}
          </Card>
          {past.length ? (
            <Card title="Horas pasadas">
              <ul className="appointment-list" aria-label="Horas pasadas">
                {past.map((appointment) => (
                  <AppointmentCard key={appointment.id} appointment={appointment} actions={actions} />
                ))}
              </ul>
            </Card>
          ) : null}
        </>
      )}
      {cancelling ? <CancelAppointmentDialog appointment={cancelling} onClose={() => setCancelling(null)} /> : null}
    </div>
  );
}
