import { Button } from "../../../components/ui/Button.tsx";
import { formatChileDateTime } from "../../../lib/dates.ts";
import { useActiveSessions, useEndOtherSessions, useEndSession } from "../api/second-factor.api.ts";

/**
 * 'Sesiones activas' of 'Mi cuenta' (issue 27): where the person is signed in (device, address, first and last use),
 * this session marked, with 'Cerrar sesión' on each other one and 'Cerrar las demás sesiones'. Ending one takes effect
 * at once on every instance of the portal.
 */
export function ActiveSessions() {
  const sessions = useActiveSessions();
  const refresh = () => void sessions.refetch();
  const endOne = useEndSession({ onSuccess: refresh });
  const endOthers = useEndOtherSessions({ onSuccess: refresh });
  const list = sessions.data ?? [];
  const others = list.filter((session) => !session.current).length;

  return (
    <section className="active-sessions" aria-labelledby="active-sessions-title">
      <h2 id="active-sessions-title">Sesiones activas</h2>
      <ul className="active-sessions__list">
        {list.map((session) => (
          <li key={session.id} className="active-sessions__item" aria-label={session.device}>
            <div>
              <strong>{session.device}</strong>
              {session.current ? <span className="active-sessions__current"> (esta sesión)</span> : null}
              <div>Dirección: {session.ip}</div>
              <div>
                Inicio: {formatChileDateTime(session.createdAt)} · Último uso: {formatChileDateTime(session.lastSeenAt)}
              </div>
            </div>
            {session.current ? null : (
              // Named by the device, apart from the menu's own 'Cerrar sesión' (this browser's); the name starts with
              // the visible words (WCAG 2.5.3).
              <Button variant="secondary" disabled={endOne.isPending} onClick={() => endOne.mutate({ sessionId: session.id })}>
                Cerrar sesión<span className="visually-hidden"> de {session.device}</span>
              </Button>
            )}
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <Button variant="danger" disabled={endOthers.isPending} onClick={() => endOthers.mutate()}>
          Cerrar las demás sesiones
        </Button>
      ) : null}
    </section>
  );
}
