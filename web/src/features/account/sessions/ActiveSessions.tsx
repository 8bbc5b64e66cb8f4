import { useState } from "react";
import { Banner } from "../../../components/ui/Banner.tsx";
import { Button } from "../../../components/ui/Button.tsx";
import { Dialog } from "../../../components/ui/Dialog.tsx";
import { formatChileDateTime } from "../../../lib/dates.ts";
import { useActiveSessions, useEndOtherSessions, useEndSession } from "../api/second-factor.api.ts";

/** The list asks again this often while open, so 'Último uso' of the other devices does not stay as it was first read. */
const SESSIONS_REFRESH_MS = 60_000;

const sessionsInWords = (count: number) => (count === 1 ? "1 sesión" : `${count} sesiones`);

/**
 * 'Sesiones activas' of 'Mi cuenta' (issue 27): where the person is signed in (device, address, first and last use),
 * this session marked, with 'Cerrar sesión' on each other one and 'Cerrar las demás sesiones'. Ending one takes effect
 * at once on every instance of the portal. Issue 45 (low list): 'Cerrar las demás sesiones' asks first, each ending
 * says what it did, and the list is read again after each action and every minute ('Último uso' was the first read's).
 * This session's last use is now: it says so instead of a time the server notes only every few minutes.
 */
export function ActiveSessions() {
  const sessions = useActiveSessions(SESSIONS_REFRESH_MS);
  const refresh = () => void sessions.refetch();
  const [done, setDone] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const endOne = useEndSession({ onSuccess: refresh });
  const endOthers = useEndOtherSessions({ onSuccess: refresh });
  const list = sessions.data ?? [];
  const others = list.filter((session) => !session.current).length;

  return (
    <section className="active-sessions" aria-labelledby="active-sessions-title">
      <h2 id="active-sessions-title">Sesiones activas</h2>
      {done ? (
        <Banner tone="success" onClose={() => setDone(null)}>
          {done}
        </Banner>
      ) : null}
      <ul className="active-sessions__list">
        {list.map((session) => (
          <li key={session.id} className="active-sessions__item" aria-label={session.device}>
            <div>
              <strong>{session.device}</strong>
              {session.current ? <span className="active-sessions__current"> (esta sesión)</span> : null}
              <div>Dirección: {session.ip}</div>
              <div>
                Inicio: {formatChileDateTime(session.createdAt)} · Último uso:{" "}
                {session.current ? "ahora" : formatChileDateTime(session.lastSeenAt)}
              </div>
            </div>
            {session.current ? null : (
              // Named by the device, apart from the menu's own 'Cerrar sesión' (this browser's); the name starts with
              // the visible words (WCAG 2.5.3).
              <Button
                variant="secondary"
                disabled={endOne.isPending}
                onClick={() => {
                  setDone(null);
                  endOne.mutate(
                    { sessionId: session.id },
                    { onSuccess: () => setDone(`Se cerró la sesión de ${session.device}. Ese dispositivo deberá ingresar de nuevo.`) },
                  );
                }}
              >
                Cerrar sesión<span className="visually-hidden"> de {session.device}</span>
              </Button>
            )}
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <Button
          variant="danger"
          disabled={endOthers.isPending}
          onClick={() => {
            setDone(null);
            setConfirming(true);
          }}
        >
          Cerrar las demás sesiones
        </Button>
      ) : null}
      {confirming ? (
        <Dialog
          className="modal"
          labelledBy="end-others-title"
          describedBy="end-others-body"
          initialFocus=".modal__actions button:first-child"
          onClose={() => setConfirming(false)}
        >
          <h2 id="end-others-title" className="modal__title">
            ¿Cerrar las demás sesiones?
          </h2>
          <p id="end-others-body" className="modal__body">
            Se cerrará{others === 1 ? "" : "n"} {sessionsInWords(others)} en otros dispositivos. Esta sesión sigue abierta. En esos
            dispositivos deberá ingresar de nuevo.
          </p>
          {endOthers.isError ? (
            <p className="active-sessions__refusal" role="alert">
              No se pudieron cerrar las demás sesiones. Intente nuevamente.
            </p>
          ) : null}
          <div className="modal__actions">
            <button type="button" className="btn btn--secondary" onClick={() => setConfirming(false)}>
              Cancelar
            </button>
            <button
              type="button"
              className="btn btn--danger"
              disabled={endOthers.isPending}
              aria-busy={endOthers.isPending}
              onClick={() =>
                endOthers.mutate(undefined, {
                  onSuccess: () => {
                    setConfirming(false);
                    setDone(
                      others === 1
                        ? "Se cerró la sesión del otro dispositivo. Solo queda abierta esta."
                        : `Se cerraron ${sessionsInWords(others)} de otros dispositivos. Solo queda abierta esta.`,
                    );
                  },
                })
              }
            >
              {endOthers.isPending ? "Cerrando…" : "Sí, cerrar las demás"}
            </button>
          </div>
        </Dialog>
      ) : null}
    </section>
  );
}
