import { useEffect } from "react";
import { Link } from "react-router";
import { Card } from "../../components/ui/Card.tsx";
import { PageTitle } from "../../components/ui/PageTitle.tsx";
import { currentClinic } from "../../lib/clinic.ts";
import { SchedulingFrame } from "./SchedulingFrame.tsx";
import { SchedulingTabs } from "./SchedulingTabs.tsx";
import "./scheduling.css";
import { useClinicSettings } from "../../lib/clinic-queries.ts";
import { askAgendaFresh } from "../../lib/agenda-freshness.ts";

const LOAD_FAILED = "No fue posible cargar la agenda en línea. Por favor intente más tarde.";

/** /dashboard/scheduling (SPEC §2 Scheduling): the clinic's scheduling page(s); one frame directly, several as tabs. */
export default function SchedulingPage() {
  const clinic = currentClinic();
  const settings = useClinicSettings();
  const frames = settings.data?.frames ?? [];
  // The portal cannot see a booking made inside the frame: once the patient leaves, 'Mis citas' asks the agenda.
  useEffect(() => () => askAgendaFresh(), []);

  let content = null;
  if (settings.isError) {
    content = (
      <Card>
        <p role="alert">{LOAD_FAILED}</p>
      </Card>
    );
  } else if (settings.data && frames.length === 0) {
    content = (
      <Card>
        <p>Esta clínica aún no ofrece reserva de horas en línea.</p>
      </Card>
    );
  } else if (frames.length === 1) {
    const [frame] = frames;
    content = <SchedulingFrame url={frame!.url} title={`Agenda en línea – ${settings.data?.title ?? clinic.title}`} />;
  } else if (frames.length > 1) {
    content = <SchedulingTabs frames={frames} />;
  }

  return (
    <div className="scheduling">
      <PageTitle title="Agendamiento" subtitle="Reservar hora en línea" />
      {content}
      {frames.length > 0 ? (
        <p className="scheduling__after">
          Las horas que reserve aquí aparecen en «Mis citas», donde puede anularlas, confirmarlas y agregarlas a su calendario.{" "}
          <Link to="/dashboard/my-appointments">Ver mis citas</Link>
        </p>
      ) : null}
    </div>
  );
}
