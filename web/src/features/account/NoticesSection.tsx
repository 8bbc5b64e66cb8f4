import { useNoticePreferences, useUpdateNoticePreferences } from "./api/notices.api.ts";

const kinds = [
  {
    key: "results",
    label: "Nuevos resultados",
    hint: "Le avisamos por correo cuando tenga un nuevo resultado de laboratorio o un informe de imagenología disponible.",
  },
  { key: "bills", label: "Nuevas cuentas hospitalarias", hint: "Le avisamos por correo cuando la clínica cargue una nueva cuenta." },
  {
    key: "appointments",
    label: "Recordatorio de sus horas",
    hint: "Le recordamos por correo, el día antes, cada hora que tenga reservada: fecha, hora y lugar.",
  },
] as const;

/** 'Avisos' in 'Mi cuenta' (issue 31): each kind of e-mail notice on or off; the mails never carry health data. */
export function NoticesSection() {
  const preferences = useNoticePreferences();
  const update = useUpdateNoticePreferences();
  const data = preferences.data;
  if (!data) return null;
  return (
    <section className="notices-section" aria-labelledby="notices-title">
      <h2 id="notices-title">Avisos</h2>
      <p>
        Los correos de aviso no incluyen información de su salud ni de sus cuentas: solo le invitan a ingresar al portal. El recordatorio de
        una hora dice solo la fecha, la hora y el lugar.
      </p>
      <ul className="notices-section__list">
        {kinds.map((kind) => (
          <li key={kind.key}>
            <label className="notices-section__switch">
              <input
                type="checkbox"
                role="switch"
                checked={data[kind.key]}
                disabled={update.isPending}
                aria-describedby={`notice-hint-${kind.key}`}
                onChange={(event) => update.mutate({ [kind.key]: event.target.checked })}
              />
              <span>{kind.label}</span>
            </label>
            <p id={`notice-hint-${kind.key}`} className="notices-section__hint">
              {kind.hint}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
