import { useRef, useState } from "react";
import { ACCESS_PAGE_SIZE, type AccessScope } from "@contract/data-rights.ts";
import type { AccessActor, AccessPage } from "@contract/data-rights.schemas.ts";
import { Banner } from "../../components/ui/Banner.tsx";
import { Button } from "../../components/ui/Button.tsx";
import { DateRangeFilter } from "../../components/ui/DateRangeFilter.tsx";
import { Paginator } from "../../components/ui/Paginator.tsx";
import { auditActionLabel, auditResourceLabel } from "../../lib/audit-labels.ts";
import { formatChileDateTime, formatDay, lastTwelveMonths } from "../../lib/dates.ts";
import { asWritten, useListUrlState } from "../../lib/list-url-state.ts";
import { accessesFailed, useAccesses } from "./api/data-rights.api.ts";

const rangeParams = { desde: asWritten, hasta: asWritten, otras: asWritten };
/** 'otras' in the address: 1 only others, 0 everything, absent the server's choice (others when there are any). */
const scopeOf = (value: string): AccessScope | undefined => (value === "1" ? "others" : value === "0" ? "all" : undefined);

type AccessEntry = AccessPage["entries"][number];
/** A run of the same person doing the same thing (issue 45 §8): shown once, with how many times and since when. */
interface AccessGroup {
  newest: AccessEntry;
  oldest: AccessEntry;
  count: number;
}

/** Consecutive rows (newest first) of one person, action, record kind and outcome become one line. */
function groupRepeated(entries: AccessEntry[]): AccessGroup[] {
  const groups: AccessGroup[] = [];
  for (const entry of entries) {
    const last = groups.at(-1);
    const same =
      last &&
      JSON.stringify(last.newest.actor) === JSON.stringify(entry.actor) &&
      last.newest.action === entry.action &&
      last.newest.resource === entry.resource &&
      last.newest.outcome === entry.outcome;
    if (same) {
      last.oldest = entry;
      last.count++;
    } else groups.push({ newest: entry, oldest: entry, count: 1 });
  }
  return groups;
}

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
  const accesses = useAccesses({ ...range, scope: scopeOf(values.otras) }, page, userId);
  const entries = accesses.data?.entries ?? [];
  // The box follows the click at once, not the address (updated a moment later) nor the previous answer while the
  // next one loads: a checkbox that springs back reads as a refusal (issue 45).
  const [othersChoice, setOthersChoice] = useState<boolean | null>(null);
  const onlyOthers = othersChoice ?? (values.otras ? values.otras === "1" : accesses.data?.scope === "others");
  const listStart = useRef<HTMLDivElement>(null);

  // Paging keeps the place: the page does not jump to its top; the new page's list starts in view.
  function goToPage(next: number) {
    show({ page: next }, { keepScroll: true });
    const top = listStart.current?.getBoundingClientRect().top ?? 0;
    if (top < 0) listStart.current?.scrollIntoView({ block: "start" });
  }

  return (
    <div className="accesses">
      {accesses.data?.patient ? (
        <p className="accesses__patient">
          Paciente: <strong>{accesses.data.patient.name}</strong> · {accesses.data.patient.rut}
        </p>
      ) : null}
      <DateRangeFilter initial={range} onSearch={(next) => show({ desde: next.from, hasta: next.to, page: 1 }, { keepScroll: true })} />
      <div ref={listStart} className="accesses__start">
        {accesses.data ? (
          <label className="accesses__others">
            <input
              type="checkbox"
              checked={onlyOthers}
              onChange={(event) => {
                setOthersChoice(event.target.checked);
                show({ otras: event.target.checked ? "1" : "0", page: 1 }, { keepScroll: true });
              }}
            />{" "}
            Solo otras personas
          </label>
        ) : null}
      </div>
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
          {onlyOthers ? "Ninguna otra persona accedió a sus datos" : "No hay accesos"} entre el {formatDay(range.from)} y el{" "}
          {formatDay(range.to)}.
        </p>
      ) : null}
      {entries.length > 0 ? (
        <ul className="accesses__list" aria-label="Accesos a los datos">
          {groupRepeated(entries).map(({ newest, oldest, count }) => (
            <li key={newest.id} className="accesses__item">
              <span className="accesses__when">{formatChileDateTime(newest.at)}</span>
              <span className="accesses__who">{actorLabel(newest.actor)}</span>
              <span className="accesses__what">
                {auditActionLabel(newest.action)}
                {outcomeNotes[newest.outcome] ?? ""}
                <span className="accesses__resource"> · {auditResourceLabel(newest.resource)}</span>
                {count > 1 ? (
                  <span className="accesses__repeated">
                    {" "}
                    · {count} veces desde el {formatChileDateTime(oldest.at)}
                  </span>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {accesses.data && accesses.data.total > ACCESS_PAGE_SIZE ? (
        <Paginator page={page} total={accesses.data.total} limit={ACCESS_PAGE_SIZE} onPageChange={goToPage} />
      ) : null}
    </div>
  );
}
