import { useState } from "react";
import { useNoticePreferences, useUpdateNoticePreferences } from "./api/notices.api.ts";

const kinds = [
  {
    key: "results",
    label: "Nuevos resultados",
    what: "avisos de nuevos resultados",
    hint: "Le avisamos por correo cuando tenga un nuevo resultado de laboratorio o un informe de imagenología disponible.",
  },
  {
    key: "bills",
    label: "Nuevas cuentas hospitalarias",
    what: "avisos de nuevas cuentas hospitalarias",
    hint: "Le avisamos por correo cuando la clínica cargue una nueva cuenta.",
  },
  {
    key: "appointments",
    label: "Recordatorio de sus horas",
    what: "el recordatorio de sus horas",
    hint: "Le recordamos por correo, el día antes, cada hora que tenga reservada: fecha, hora y lugar.",
  },
] as const;

type Kind = (typeof kinds)[number];

/** What a saved switch now means, in words (issue 45: a switch changed with no word that it was kept). */
const noticeSavedMessage = (kind: Kind, on: boolean) =>
  on ? `Guardado. Recibirá ${kind.what} por correo.` : `Guardado. Ya no recibirá ${kind.what} por correo.`;

/**
 * 'Avisos' in 'Mi cuenta' (issue 31): each kind of e-mail notice on or off; the mails never carry health data. A switch
 * saves at once and says so under its hint (issue 45 low list); a failure is the red toast, and the switch shows what is
 * stored.
 */
export function NoticesSection() {
  const preferences = useNoticePreferences();
  const update = useUpdateNoticePreferences();
  // Said beside the switch that changed (under its hint), where the eye is on a phone.
  const [saved, setSaved] = useState<{ key: Kind["key"]; text: string } | null>(null);
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
                onChange={(event) => {
                  const on = event.target.checked;
                  setSaved(null);
                  update.mutate({ [kind.key]: on }, { onSuccess: () => setSaved({ key: kind.key, text: noticeSavedMessage(kind, on) }) });
                }}
              />
              <span>{kind.label}</span>
            </label>
            <p id={`notice-hint-${kind.key}`} className="notices-section__hint">
              {kind.hint}
            </p>
            {/* Always in the page, so a screen reader hears each new message in it. */}
            <p className="notices-section__saved" role="status">
              {saved?.key === kind.key ? saved.text : null}
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
