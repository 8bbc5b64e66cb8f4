import { useState } from "react";
import { formatChileDateTime } from "../../lib/dates.ts";
import { Button } from "./Button.tsx";
import "./refresh-button.css";

// Issue 26: the portal keeps the laboratory's and the PACS's answer to a results list (and issue 44 the agenda's to
// 'Mis citas') for up to a minute, so a patient who comes back to the list does not wait for the provider again. 'Actualizar' asks the provider now. While
// it runs the button says so and ignores presses; it stays focusable (aria-disabled, not disabled) so a keyboard user
// does not lose their place, and the time of the last update is told beside it (a polite status, read once).

export interface RefreshButtonProps {
  /** Asks the provider again; resolves true when the list came back. */
  onRefresh(): Promise<boolean>;
  /** The list is being asked for (by this button or otherwise): pressing again does nothing. */
  busy: boolean;
}

const chileTime = (now: Date) => formatChileDateTime(now.toISOString()).split(" ")[1] ?? "";

/** 'Actualizar' for a list the server may answer from its kept copy, with 'Actualizando…' while it runs and 'Lista actualizada a las HH:MM.' after. */
export function RefreshButton({ onRefresh, busy }: RefreshButtonProps) {
  const [refreshing, setRefreshing] = useState(false);
  const [refreshedAt, setRefreshedAt] = useState<string | null>(null);
  const waiting = busy || refreshing;
  const refresh = async () => {
    if (waiting) return;
    setRefreshing(true);
    setRefreshedAt(null);
    try {
      if (await onRefresh()) setRefreshedAt(chileTime(new Date()));
    } finally {
      setRefreshing(false);
    }
  };
  return (
    <div className="results-refresh">
      <Button variant="secondary" aria-disabled={waiting} aria-busy={refreshing} onClick={() => void refresh()}>
        {refreshing ? "Actualizando…" : "Actualizar"}
      </Button>
      <span className="results-refresh__note" role="status">
        {refreshedAt ? `Lista actualizada a las ${refreshedAt}.` : ""}
      </span>
    </div>
  );
}
