import { useMemo, useRef, useState, type FormEvent } from "react";
import type { z } from "zod";
import { showToast } from "./overlay-store.ts";

/** Value and handlers of one text field, ready to spread on TextField / PasswordField. */
export interface FieldBinding {
  name: string;
  value: string;
  error?: string;
  onChange(event: { target: { value: string } }): void;
  onBlur(): void;
  onFocus(): void;
}

/**
 * The form's zod schema, or a function that loads it: the public pages and 'Mis datos' pass a loader so zod is not part
 * of their first load (issues 14, 46). A loaded schema is asked for when a field first gets the focus or changes, when
 * the form is validated, or at the latest on submit.
 */
export type FormSchemaSource = z.ZodType | (() => Promise<z.ZodType>);

function errorsOf<Values>(schema: z.ZodType, values: Values): Partial<Record<keyof Values, string>> {
  const result = schema.safeParse(values);
  const found: Partial<Record<keyof Values, string>> = {};
  if (!result.success) {
    for (const issue of result.error.issues) {
      const key = issue.path[0] as keyof Values | undefined;
      if (key !== undefined && found[key] === undefined) found[key] = issue.message;
    }
  }
  return found;
}

/**
 * A small form state over a zod object schema built from the contract rules (server/contract/validation.ts), so the
 * browser and the server check the same rules with the same messages. Errors show once a field was left or the
 * form was submitted. While a lazily loaded schema has not arrived, no error shows and the form is not valid.
 */
export function useForm<Values extends Record<string, string>>(source: FormSchemaSource, initial: Values) {
  const [values, setValues] = useState<Values>(initial);
  const [touched, setTouched] = useState<Partial<Record<keyof Values, boolean>>>({});
  const [submitted, setSubmitted] = useState(false);
  const [loaded, setLoaded] = useState<z.ZodType | null>(null);
  const loading = useRef<Promise<z.ZodType> | null>(null);
  const schema = typeof source === "function" ? loaded : source;

  /** The schema, loading it on the first call when it comes from a loader. */
  function load(): Promise<z.ZodType> {
    if (typeof source !== "function") return Promise.resolve(source);
    loading.current ??= source().then(
      (found) => {
        setLoaded(() => found);
        return found;
      },
      (error: unknown) => {
        loading.current = null;
        throw error;
      },
    );
    return loading.current;
  }

  const errors = useMemo<Partial<Record<keyof Values, string>>>(() => (schema ? errorsOf(schema, values) : {}), [schema, values]);
  const isValid = schema !== null && Object.keys(errors).length === 0;

  function setValue<K extends keyof Values>(name: K, value: Values[K]) {
    setValues((current) => ({ ...current, [name]: value }));
  }

  /** Replaces every value (e.g. with a record loaded from the server); what was touched stays touched. */
  function reset(next: Values) {
    setValues(next);
  }

  function field<K extends keyof Values & string>(name: K, transform?: (value: string) => string): FieldBinding {
    return {
      name,
      value: values[name] as string,
      error: touched[name] || submitted ? errors[name] : undefined,
      onChange: (event) => {
        // A value can arrive without the focus (a browser's autofill): the rules are needed then too.
        void load().catch(() => undefined);
        setValue(name, (transform ? transform(event.target.value) : event.target.value) as Values[K]);
      },
      onBlur: () => setTouched((current) => ({ ...current, [name]: true })),
      onFocus: () => void load().catch(() => undefined),
    };
  }

  /**
   * Marks every field as touched; returns whether the form is valid (false while a lazy schema is loading: it starts
   * loading, and the errors show once it is here).
   */
  function validate(): boolean {
    setSubmitted(true);
    void load().catch(() => undefined);
    return isValid;
  }

  /**
   * A submit handler: marks every field as touched and calls `onValid` once the values pass the schema, `onInvalid`
   * when they do not (the errors are shown by then).
   */
  function submit(onValid: (values: Values) => void, onInvalid?: () => void) {
    return (event: FormEvent) => {
      event.preventDefault();
      setSubmitted(true);
      load().then(
        (found) => {
          if (Object.keys(errorsOf(found, values)).length === 0) onValid(values);
          else onInvalid?.();
        },
        () => showToast(),
      );
    };
  }

  return { values, errors, isValid, setValue, reset, field, validate, submit };
}
