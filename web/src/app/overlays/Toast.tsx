import { useLayoutEffect, useRef } from "react";
import { CloseIcon } from "../../components/ui/icons.tsx";
import { hideToast } from "../../lib/overlay-store.ts";

/**
 * The red error toast; it disappears by itself after 3 seconds (overlay-store). A manual popover, so it shows in the
 * top layer above an open dialog (components/ui/Dialog.tsx) as the dialog's own failures need.
 */
export function Toast({ message }: { message: string }) {
  const toast = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => toast.current?.showPopover(), []);
  return (
    <div ref={toast} popover="manual" className="toast" role="alert">
      <span>{message}</span>
      <button type="button" className="toast__close" onClick={hideToast} aria-label="Cerrar">
        <CloseIcon size={16} />
      </button>
    </div>
  );
}
