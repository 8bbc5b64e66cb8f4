import { useId, type ReactNode } from "react";

export interface CheckboxProps {
  checked: boolean;
  onChange(checked: boolean): void;
  children: ReactNode;
  disabled?: boolean;
  name?: string;
}

/** Checkbox with its clickable label. */
export function Checkbox({ checked, onChange, children, disabled, name }: CheckboxProps) {
  const id = useId();
  return (
    <div className="checkbox">
      <input
        id={id}
        name={name}
        type="checkbox"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{children}</label>
    </div>
  );
}
