import { rightsRequestStatusLabels, type RightsRequestDto } from "@contract/data-rights.schemas.ts";
import { formatChileDateTime } from "../../lib/dates.ts";

/** dd-mm-aaaa of an instant, in Chile's time. */
export const chileDayOf = (iso: string) => formatChileDateTime(iso).slice(0, 10);

/** The request's state, with its legal deadline (marked when it passed without an answer). */
export function RequestStatus({ request }: { request: RightsRequestDto }) {
  return (
    <span className="rights-request__status">
      <strong>{rightsRequestStatusLabels[request.status]}</strong>
      {" · "}
      Plazo: {chileDayOf(request.dueAt)}
      {request.overdue ? <span className="rights-request__overdue"> (vencido)</span> : null}
    </span>
  );
}
