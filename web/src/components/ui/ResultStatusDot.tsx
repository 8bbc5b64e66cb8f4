export type ResultStatus = "Validada" | "Pendiente Validación";

/** Green dot for 'Validada', red for 'Pendiente Validación' (SPEC §2 laboratory rows), with the status text. */
export function ResultStatusDot({ status, label }: { status: ResultStatus; label?: string }) {
  const validated = status === "Validada";
  return (
    <span className={`result-status result-status--${validated ? "ok" : "pending"}`}>
      <span className="result-status__dot" aria-hidden="true" />
      {label ?? status}
    </span>
  );
}
