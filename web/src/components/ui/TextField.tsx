import { useId, type InputHTMLAttributes, type ReactNode } from "react";

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, "onChange"> {
  label: string;
  value: string;
  onChange(event: { target: { value: string } }): void;
  /** Message shown under the field (with a red border) when set; pass it only once the field is touched. */
  error?: string;
  /** Short help under the field when there is no error. */
  hint?: string;
  /** Content at the right end of the input (e.g. a show/hide button). */
  adornment?: ReactNode;
}

/** Labelled input with its error text; the border turns red while `error` is set. */
export function TextField({ label, error, hint, adornment, className, id, ...input }: TextFieldProps) {
  const generatedId = useId();
  const inputId = id ?? generatedId;
  const messageId = `${inputId}-message`;
  const message = error ?? hint;
  return (
    <div className={["field", error ? "field--invalid" : "", className ?? ""].filter(Boolean).join(" ")}>
      <label className="field__label" htmlFor={inputId}>
        {label}
      </label>
      <div className="field__control">
        <input
          id={inputId}
          className="field__input"
          aria-invalid={error ? true : undefined}
          aria-describedby={message ? messageId : undefined}
          {...input}
        />
        {adornment ? <div className="field__adornment">{adornment}</div> : null}
      </div>
      {message ? (
        <p id={messageId} className={error ? "field__error" : "field__hint"} role={error ? "alert" : undefined}>
          {message}
        </p>
      ) : null}
    </div>
  );
}
