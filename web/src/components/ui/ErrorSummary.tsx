import { useEffect, useState } from "react";
import { announce, asSentences } from "../../lib/announcer.ts";

// GOV.UK's error summary (issue 33, notes/ux-writing.md "Forms"): on a save stopped by errors, the form lists them at
// the top as links to their fields; each field is also marked under itself. The form focuses the first field, and a
// screen reader hears the summary once, as one message (lib/announcer.ts): as a live region of its own, Orca read its
// title, items and links in pieces, each error twice and out of order.

const SUMMARY_TITLE = "Revise los campos marcados para guardar";

interface SummaryError {
  /** The id of the field's input (the link's target). */
  fieldId: string;
  label: string;
  message: string;
}

function ErrorSummary({ errors }: { errors: SummaryError[] }) {
  if (errors.length === 0) return null;
  return (
    <div className="error-summary" role="region" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title" className="error-summary__title">
        {SUMMARY_TITLE}
      </h2>
      <ul className="error-summary__list">
        {errors.map((error) => (
          <li key={error.fieldId}>
            <a
              href={`#${error.fieldId}`}
              onClick={(event) => {
                event.preventDefault();
                document.getElementById(error.fieldId)?.focus();
              }}
            >
              {error.label}: {error.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

/** Focuses the first of the given fields that is marked invalid (in the order of the form). */
function focusFirstInvalid(fieldIds: string[], invalid: ReadonlySet<string>): void {
  const first = fieldIds.find((id) => invalid.has(id));
  if (first) document.getElementById(first)?.focus();
}

/**
 * The error summary of one form, the one way every form shows it (patient and staff): `fields` are the labels by
 * field name, in the order of the form; `errors` the current message of each field (the form's rules, or a server
 * refusal shown on its field). `stop()` is called when a save is stopped: the summary shows from then on, listing
 * what is still wrong, and once the form has rendered the refusal, the first wrong field takes the focus.
 */
export function useErrorSummary<Name extends string>(
  fields: Readonly<Record<Name, string>>,
  idOf: (name: Name) => string,
  errors: Partial<Record<Name, string | undefined>>,
  shownFromStart = false,
) {
  const [shown, setShown] = useState(shownFromStart);
  const [focusRequests, setFocusRequests] = useState(0);
  const invalid = (Object.keys(fields) as Name[]).filter((name) => errors[name] !== undefined);
  const invalidIds = invalid.map(idOf);
  useEffect(() => {
    if (focusRequests === 0 || invalid.length === 0) return;
    focusFirstInvalid(invalidIds, new Set(invalidIds));
    announce(asSentences(SUMMARY_TITLE, ...invalid.map((name) => `${fields[name]}: ${errors[name] ?? ""}`)));
    // After each stop() only, with the errors of that render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focusRequests]);
  return {
    stop(): void {
      setShown(true);
      setFocusRequests((count) => count + 1);
    },
    summary: shown ? (
      <ErrorSummary errors={invalid.map((name) => ({ fieldId: idOf(name), label: fields[name], message: errors[name] ?? "" }))} />
    ) : null,
  };
}
