import { useForm } from "../../lib/use-form.ts";
import { Button } from "./Button.tsx";
import { TextField } from "./TextField.tsx";

export interface DayRange {
  /** YYYY-MM-DD. */
  from: string;
  /** YYYY-MM-DD. */
  to: string;
}

export interface DateRangeFilterProps {
  initial: DayRange;
  onSearch(range: DayRange): void;
}

// The contract's rules for the range load when a day first gets the focus or 'Buscar' is pressed (useForm's lazy
// schema): the pages that show this filter paint without zod (issue 46).
const rangeSchema = () => import("@contract/day-range.ts").then((contract) => contract.dayRangeFormSchema);

/**
 * Desde / Hasta and 'Buscar' (SPEC §2 results screens), on useForm with the contract's dayRangeFormSchema. A range
 * with a day missing or Desde after Hasta is refused, not searched; the reason shows under the form once 'Buscar'
 * was pressed.
 */
export function DateRangeFilter({ initial, onSearch }: DateRangeFilterProps) {
  const form = useForm(rangeSchema, { from: initial.from, to: initial.to });
  const { from, to } = form.values;
  // Errors show only after 'Buscar' (the fields are not marked as left), one at a time.
  const error = form.field("from").error ?? form.field("to").error;

  return (
    <form className="date-range" onSubmit={form.submit(onSearch)} noValidate aria-label="Filtrar por fecha">
      <TextField
        label="Desde"
        type="date"
        value={from}
        max={to || undefined}
        onChange={(event) => form.setValue("from", event.target.value)}
      />
      <TextField
        label="Hasta"
        type="date"
        value={to}
        min={from || undefined}
        onChange={(event) => form.setValue("to", event.target.value)}
      />
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
