import { rightsRequestStatusLabels } from "@contract/data-rights.ts";
import type { RightsRequestDto } from "@contract/data-rights.schemas.ts";
import { formatChileDateTime } from "../../lib/dates.ts";

/** dd-mm-aaaa of an instant, in Chile's time. */
export const chileDayOf = (iso: string) => formatChileDateTime(iso).slice(0, 10);

/**
 * The request's state: an open one with its legal deadline (marked when it passed without an answer), a finished one
 * with the day it was resolved or rejected (issue 45).
 */
export function RequestStatus({ request }: { request: RightsRequestDto }) {
  const status = rightsRequestStatusLabels[request.status];
  if (request.resolvedAt)
    return (
      <span className="rights-request__status">
        <strong>{status}</strong> el {chileDayOf(request.resolvedAt)}
      </span>
    );
  return (
    <span className="rights-request__status">
      <strong>{status}</strong>
      {" · "}
      Plazo: {chileDayOf(request.dueAt)}
      {request.overdue ? <span className="rights-request__overdue"> (vencido)</span> : null}
    </span>
  );
}
