/** Full-page spinner that blocks input while a request is pending (it fades in after a moment to avoid flicker). */
export function BlockingSpinner() {
  return (
    <div className="spinner-overlay" role="status" aria-live="polite" aria-label="Cargando" data-testid="blocking-spinner">
      <div className="spinner" />
    </div>
  );
}
