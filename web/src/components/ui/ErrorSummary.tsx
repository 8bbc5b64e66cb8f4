// GOV.UK's error summary (issue 33, notes/ux-writing.md "Forms"): on a save stopped by errors, the form lists them at
// the top as links to their fields; each field is also marked under itself. The form focuses the first field.

export interface SummaryError {
  /** The id of the field's input (the link's target). */
  fieldId: string;
  label: string;
  message: string;
}

export function ErrorSummary({ errors }: { errors: SummaryError[] }) {
  if (errors.length === 0) return null;
  return (
    <div className="error-summary" role="alert" aria-labelledby="error-summary-title">
      <h2 id="error-summary-title" className="error-summary__title">
        Revise los campos marcados para guardar
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
export function focusFirstInvalid(fieldIds: string[], invalid: ReadonlySet<string>): void {
  const first = fieldIds.find((id) => invalid.has(id));
  if (first) document.getElementById(first)?.focus();
}
