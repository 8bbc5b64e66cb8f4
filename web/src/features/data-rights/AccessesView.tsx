import { ACCESS_PAGE_SIZE, type AccessActor } from "@contract/data-rights.schemas.ts";
import { Banner } from "../../components/ui/Banner.tsx";
import { Button } from "../../components/ui/Button.tsx";
import { DateRangeFilter } from "../../components/ui/DateRangeFilter.tsx";
import { Paginator } from "../../components/ui/Paginator.tsx";
import { auditActionLabel, auditResourceLabel } from "../../lib/audit-labels.ts";
import { formatChileDateTime, formatDay, lastTwelveMonths } from "../../lib/dates.ts";
import { asWritten, useListUrlState } from "../../lib/list-url-state.ts";
import { accessesFailed, useAccesses } from "./api/data-rights.api.ts";

const rangeParams = { desde: asWritten, hasta: asWritten };

/** Who acted, in the patient's words. */
export function actorLabel(actor: AccessActor): string {
  switch (actor.kind) {
    case "self":
      return "Usted";
    case "staff":
      return `${actor.name} (${actor.role})`;
    case "caregiver":
      return `${actor.name} (Cuidador(a))`;
    case "system":
      return "Sistemas de la clínica";
  }
}

const outcomeNotes: Record<string, string> = { denied: " (denegado)", failed: " (fallido)" };

/**
 * 'Accesos a mis datos' (issue 28): who read or changed the patient's data and when, from the audit trail, newest first,
 * by days (Desde/Hasta, the last twelve months unless changed) and paged; range and page live in the address. Staff
 * see the same list for one patient (`userId`).
 */
export function AccessesView({ userId }: { userId?: number }) {
  const { page, values, show } = useListUrlState(rangeParams);
  const fallback = lastTwelveMonths();
  const range = { from: values.desde || fallback.from, to: values.hasta || fallback.to };
  const accesses = useAccesses(range, page, userId);
  const entries = accesses.data?.entries ?? [];

  return (
    <div className="accesses">
      <DateRangeFilter initial={range} onSearch={(next) => show({ desde: next.from, hasta: next.to, page: 1 })} />
      {accesses.isError ? (
        <Banner>
          {accessesFailed}{" "}
          <Button variant="link" onClick={() => void accesses.refetch()}>
            Reintentar
          </Button>
        </Banner>
      ) : null}
      {accesses.isPending ? <p>Cargando accesos…</p> : null}
      {accesses.isSuccess && entries.length === 0 ? (
        <p className="accesses__empty">
          No hay accesos entre el {formatDay(range.from)} y el {formatDay(range.to)}.
        </p>
      ) : null}
      {entries.length > 0 ? (
        <ul className="accesses__list" aria-label="Accesos a los datos">
          {entries.map((entry) => (
            <li key={entry.id} className="accesses__item">
              <span className="accesses__when">{formatChileDateTime(entry.at)}</span>
              <span className="accesses__who">{actorLabel(entry.actor)}</span>
              <span className="accesses__what">
                {auditActionLabel(entry.action)}
                {outcomeNotes[entry.outcome] ?? ""}
                <span className="accesses__resource"> · {auditResourceLabel(entry.resource)}</span>
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {accesses.data && accesses.data.total > ACCESS_PAGE_SIZE ? (
        <Paginator page={page} total={accesses.data.total} limit={ACCESS_PAGE_SIZE} onPageChange={(next) => show({ page: next })} />
      ) : null}
    </div>
  );
}
