import { useMemo, useState } from "react";
import type { z } from "zod";

/** Value and handlers of one text field, ready to spread on TextField / PasswordField. */
export interface FieldBinding {
  name: string;
  value: string;
  error?: string;
  onChange(event: { target: { value: string } }): void;
  onBlur(): void;
}

/**
 * A small form state over a zod object schema built from the contract rules (server/contract/validation.ts), so the
 * browser and the server check the same rules with the same messages. Errors show once a field was left or the
 * form was submitted.
 */
export function useForm<Values extends Record<string, string>>(schema: z.ZodType, initial: Values) {
  const [values, setValues] = useState<Values>(initial);
  const [touched, setTouched] = useState<Partial<Record<keyof Values, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);

  const errors = useMemo(() => {
    const result = schema.safeParse(values);
    const found: Partial<Record<keyof Values, string>> = {};
    if (!result.success) {
      for (const issue of result.error.issues) {
        const key = issue.path[0] as keyof Values | undefined;
        if (key !== undefined && found[key] === undefined) found[key] = issue.message;
      }
    }
    return found;
  }, [schema, values]);

  const isValid = Object.keys(errors).length === 0;

  function setValue<K extends keyof Values>(name: K, value: Values[K]) {
    setValues((current) => ({ ...current, [name]: value }));
  }

  function field<K extends keyof Values & string>(name: K, transform?: (value: string) => string): FieldBinding {
    return {
      name,
      value: values[name] as string,
      error: touched[name] || submitted ? errors[name] : undefined,
      onChange: (event) => setValue(name, (transform ? transform(event.target.value) : event.target.value) as Values[K]),
      onBlur: () => setTouched((current) => ({ ...current, [name]: true })),
    };
  }

  /** Marks every field as touched; returns whether the form is valid. */
  function validate(): boolean {
    setSubmitted(true);
    return isValid;
  }

  return { values, errors, isValid, setValue, field, validate };
}
