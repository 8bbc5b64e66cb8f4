import { useLayoutEffect, useRef } from "react";

/**
 * Full-page spinner that blocks input while a request is pending (it fades in after a moment to avoid flicker). A
 * manual popover, so it also covers an open dialog (components/ui/Dialog.tsx).
 */
export function BlockingSpinner() {
  const spinner = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => spinner.current?.showPopover(), []);
  return (
    <div
      ref={spinner}
      popover="manual"
      className="spinner-overlay"
      role="status"
      aria-live="polite"
      aria-label="Cargando"
      data-testid="blocking-spinner"
    >
      <div className="spinner" />
    </div>
  );
}
