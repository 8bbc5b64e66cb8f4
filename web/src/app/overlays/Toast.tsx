import { CloseIcon } from "../../components/ui/icons.tsx";
import { hideToast } from "../../lib/overlay-store.ts";

/** The red error toast; it disappears by itself after 3 seconds (overlay-store). */
export function Toast({ message }: { message: string }) {
  return (
    <div className="toast" role="alert">
      <span>{message}</span>
      <button type="button" className="toast__close" onClick={hideToast} aria-label="Cerrar">
        <CloseIcon size={16} />
      </button>
    </div>
  );
}
