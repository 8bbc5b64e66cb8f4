import { useEffect, useId, useRef, useState } from "react";
import type { ClinicDto } from "@contract/users.dto.ts";
import { Checkbox } from "../../components/ui/Checkbox.tsx";
import { ChevronRightIcon } from "../../components/ui/icons.tsx";
import { chipModel } from "./user-forms.ts";

export interface ClinicMultiSelectProps {
  clinics: ClinicDto[];
  /** Selected clinic keys (codeClinicStr). */
  selected: string[];
  onChange(selected: string[]): void;
  disabled?: boolean;
}

/**
 * The executive's clinics (privileges): a button showing the first two selected clinics as chips and '+N' for the
 * rest (SPEC §9), opening a list of every clinic with a checkbox. Escape or a click outside closes it.
 */
export function ClinicMultiSelect({ clinics, selected, onChange, disabled }: ClinicMultiSelectProps) {
  const [open, setOpen] = useState(false);
  const root = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const buttonId = useId();
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const onPointer = (event: MouseEvent) => {
      if (root.current && !root.current.contains(event.target as Node)) setOpen(false);
    };
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      trigger.current?.focus();
    };
    document.addEventListener("mousedown", onPointer);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("mousedown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  // Chips in catalogue order, so the same selection always reads the same way.
  const selectedClinics = clinics.filter((clinic) => selected.includes(clinic.codeClinicStr));
  const { chips, more } = chipModel(selectedClinics);

  function toggle(code: string, checked: boolean) {
    const next = checked ? [...selected.filter((c) => c !== code), code] : selected.filter((c) => c !== code);
    onChange(clinics.map((clinic) => clinic.codeClinicStr).filter((c) => next.includes(c)));
  }

  return (
    <div className={`field clinic-select${open ? " clinic-select--open" : ""}`} ref={root}>
      <label className="field__label" htmlFor={buttonId}>
        Clínicas
      </label>
      <button
        id={buttonId}
        ref={trigger}
        type="button"
        className="field__input clinic-select__trigger"
        aria-expanded={open}
        aria-controls={panelId}
        disabled={disabled}
        onClick={() => setOpen((value) => !value)}
      >
        <span className="clinic-select__chips" data-testid="clinic-chips">
          {chips.length === 0 ? <span className="clinic-select__placeholder">Seleccione clínicas</span> : null}
          {chips.map((clinic) => (
            <span key={clinic.codeClinicStr} className="clinic-select__chip">
              {clinic.title}
            </span>
          ))}
          {more > 0 ? <span className="clinic-select__chip clinic-select__chip--more">+{more}</span> : null}
        </span>
        <ChevronRightIcon className="clinic-select__chevron" size={18} />
      </button>
      <div id={panelId} className="clinic-select__panel" role="group" aria-label="Clínicas disponibles" hidden={!open}>
        {clinics.map((clinic) => (
          <Checkbox
            key={clinic.codeClinicStr}
            name="clinics"
            checked={selected.includes(clinic.codeClinicStr)}
            onChange={(checked) => toggle(clinic.codeClinicStr, checked)}
          >
            {clinic.title}
          </Checkbox>
        ))}
      </div>
    </div>
  );
}
