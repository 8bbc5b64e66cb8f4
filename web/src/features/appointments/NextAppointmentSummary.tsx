import { Link } from "react-router";
import type { AppointmentDto } from "@contract/appointments.dto.ts";
import { useOwnAppointments } from "./api/appointments.api.ts";
import "./appointments.css";

export const MY_APPOINTMENTS_PATH = "/dashboard/my-appointments";

const placeOf = (appointment: AppointmentDto) =>
  [
    [
      appointment.place.name,
      appointment.place.clinic && appointment.place.clinic !== appointment.place.name ? `(${appointment.place.clinic})` : null,
    ]
      .filter(Boolean)
      .join(" "),
    appointment.place.address,
  ]
    .filter(Boolean)
    .join(", ");

/**
 * The next appointment at the top of 'Mi cuenta' (issue 44): date, time and place, with a link to 'Mis citas'; a quiet
 * line when there is none, and the agenda not answering said in the card (the rest of the page does not depend on it).
 */
export function NextAppointmentSummary() {
  const appointments = useOwnAppointments();
  const next = appointments.data?.find((appointment) => appointment.upcoming && appointment.status !== "Anulada");
  let line: string;
  if (appointments.isPending) line = "Consultando sus horas…";
  else if (appointments.isError) line = "El servicio de agenda no está respondiendo; sus horas están a salvo. Intente más tarde.";
  else if (next) line = `${next.date} a las ${next.time}${placeOf(next) ? `, ${placeOf(next)}` : ""}.`;
  else line = "No tiene horas próximas.";
  return (
    <section
      className={appointments.isPending ? "summary-card next-appointment next-appointment--loading" : "summary-card next-appointment"}
      aria-labelledby="next-appointment-title"
    >
      <h2 id="next-appointment-title" className="summary-card__title next-appointment__title">
        Próxima hora
      </h2>
      <p className="next-appointment__line">
        {line} <Link to={MY_APPOINTMENTS_PATH}>Ver mis citas</Link>
      </p>
    </section>
  );
}
