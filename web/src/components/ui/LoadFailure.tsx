import { AlertIcon } from "./icons.tsx";
import { Button } from "./Button.tsx";
import { toastAsSentence } from "./failure-words.ts";

// The one in-page message of a call that failed or timed out (issue 33, notes/ux-writing.md "Three states"): it sits
// where the data would be, names the service that is not answering, says that nothing is lost and offers 'Reintentar'.
// It lasts until a retry succeeds; a toast alone would leave the page looking like "you have nothing". SPEC §8's toast
// still shows for its 3 seconds, and this message says the toast's own words, so both tell one failure the same way.

/** The services a screen's data comes from, as the patient knows them. */
export type FailingService = "laboratorio" | "imagenología" | "cuentas hospitalarias" | "agenda";

/** The message's heading, the same words on every screen. */
export function loadFailureTitle(service: FailingService): string {
  return `El servicio de ${service} no está respondiendo`;
}

/** The message's reassurance, the same words on every screen. */
const NOTHING_LOST = "Sus datos están a salvo: no se ha perdido nada.";

export interface LoadFailureProps {
  service: FailingService;
  /** SPEC §8's toast of the failed call (its `meta.errorToast`), repeated here word for word. */
  toast: string;
  /** Asks again; the button is disabled while `retrying`. */
  onRetry(): void;
  retrying?: boolean;
}

/** A failed load, told in the page with a 'Reintentar' button. */
export function LoadFailure({ service, toast, onRetry, retrying = false }: LoadFailureProps) {
  return (
    <div className="load-failure" role="alert">
      <AlertIcon className="load-failure__icon" />
      <div className="load-failure__text">
        <p className="load-failure__title">{loadFailureTitle(service)}</p>
        <p>
          {toastAsSentence(toast)} {NOTHING_LOST}
        </p>
      </div>
      <Button variant="secondary" onClick={onRetry} disabled={retrying} aria-busy={retrying}>
        {retrying ? "Reintentando…" : "Reintentar"}
      </Button>
    </div>
  );
}
