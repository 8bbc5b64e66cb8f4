import { useEffect, useRef, useState } from "react";
import { Button } from "./Button.tsx";
import { toastAsSentence } from "./failure-words.ts";
import { AlertIcon } from "./icons.tsx";

// A row's action that failed (open the viewer, open or e-mail a report), told beside the button that started it
// (issue 33): SPEC §8's toast shows for its 3 seconds, and this message — the toast's own words first, then what did
// not happen — stays next to the action with 'Reintentar' until the action is tried again.

interface Failure {
  /** What did not happen, e.g. "No se pudo abrir el visor de imágenes del examen IM1." */
  what: string;
  retry(): void;
}

/** The failed actions of a list's rows, by row key; `attempt` runs an action and remembers it if it failed. */
export function useActionFailures(toast: string) {
  const [failures, setFailures] = useState<Readonly<Record<string, Failure>>>({});
  const forget = (key: string) => setFailures(({ [key]: _forgotten, ...others }) => others);

  async function attempt(key: string, what: string, run: () => Promise<boolean>): Promise<void> {
    forget(key);
    if (await run()) return;
    setFailures((current) => ({ ...current, [key]: { what, retry: () => void attempt(key, what, run) } }));
  }

  function messageFor(key: string) {
    const failure = failures[key];
    return failure ? <ActionFailureMessage toast={toast} failure={failure} /> : null;
  }

  return { attempt, messageFor };
}

/**
 * The message; it scrolls into view when it appears (on a phone it sits under the buttons, below the fold). The toast
 * has just said its words aloud: only what did not happen is a live region, or a screen reader says the toast twice.
 */
function ActionFailureMessage({ toast, failure }: { toast: string; failure: Failure }) {
  const message = useRef<HTMLDivElement>(null);
  useEffect(() => {
    // A block, not an expression: Chromium's scrollIntoView answers a promise, which React would take for a cleanup.
    void message.current?.scrollIntoView({ block: "nearest" });
  }, []);
  return (
    <div ref={message} className="action-failure">
      <AlertIcon className="action-failure__icon" />
      <p className="action-failure__text">
        {toastAsSentence(toast)} <span role="alert">{failure.what}</span>
      </p>
      <Button variant="link" onClick={failure.retry}>
        Reintentar
      </Button>
    </div>
  );
}
