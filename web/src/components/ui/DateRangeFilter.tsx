import { useState, type FormEvent } from "react";
import { Button } from "./Button.tsx";
import { TextField } from "./TextField.tsx";

export interface DayRange {
  /** YYYY-MM-DD. */
  from: string;
  /** YYYY-MM-DD. */
  to: string;
}

export const rangeOrderMessage = "La fecha Desde no puede ser posterior a la fecha Hasta";
const requiredMessage = "Ingrese ambas fechas";

export interface DateRangeFilterProps {
  initial: DayRange;
  onSearch(range: DayRange): void;
}

/** Desde / Hasta and 'Buscar' (SPEC §2 results screens). A range whose Desde is after Hasta is refused, not searched. */
export function DateRangeFilter({ initial, onSearch }: DateRangeFilterProps) {
  const [from, setFrom] = useState(initial.from);
  const [to, setTo] = useState(initial.to);
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!from || !to) return setError(requiredMessage);
    if (from > to) return setError(rangeOrderMessage);
    setError(null);
    onSearch({ from, to });
  }

  return (
    <form className="date-range" onSubmit={submit} noValidate aria-label="Filtrar por fecha">
      <TextField label="Desde" type="date" value={from} max={to || undefined} onChange={(event) => setFrom(event.target.value)} />
      <TextField label="Hasta" type="date" value={to} min={from || undefined} onChange={(event) => setTo(event.target.value)} />
      <Button type="submit" className="date-range__search">
        Buscar
      </Button>
      {error ? (
        <p className="date-range__error field__error" role="alert">
          {error}
        </p>
      ) : null}
    </form>
  );
}
