import { z } from "zod";
import { linearPattern, type LinearPattern } from "./linear-pattern.ts";
import { isValidRut, MAX_RUT_LENGTH } from "./rut.ts";
import { dayToDate } from "./days.ts";

// Every validation rule of SPEC §5 with its exact Spanish message; used by the React forms and the server routes.
// Every rule checks the length first and stops there when it fails (abort: true), and every pattern runs on a
// linear-time engine (linear-pattern.ts): no input, however long or crafted, makes a rule do more than linear work.

// Zod's own messages (for shapes no rule names) in Spanish too, on the server and in the browser.
z.config(z.locales.es());

export const messages = {
  rut: "Rut inválido",
  required: "Campo Obligatorio",
  loginPassword: "La contraseña debe tener al menos 8 caracteres",
  newPassword: "El password debe tener al menos 8 caracteres, una letra minúscula, una letra mayúscula y un número",
  commonPassword: "La contraseña es demasiado común, elija otra",
  passwordMismatch: "Las contraseñas no coinciden",
  name: "Solo letras",
  email: "Correo electrónico inválido",
  emailAdminEdit: "Email inválido",
  emailCreateUser: "La dirección de correo es incorrecta",
  phone: "Solo caracteres numéricos",
  birthDate: "La fecha es inválida",
  digitsOnly: "Solo números",
  pdfOnly: "Solo se permiten archivos PDF",
  pdfTooLarge: (name: string) => `El archivo ${name} pesa más de 2MB`,
} as const;

export const MAX_PDF_BYTES = 2 * 1024 * 1024;

/** Length limit that stops the rule when it fails, so no later check (pattern or refinement) sees the long value. */
const atMost = (length: number, message: string) => ({ error: message, abort: true }) as const;
const matching = (pattern: LinearPattern) => (value: string) => pattern.matches(value);

const requiredString = (message: string = messages.required) => z.string({ error: message }).trim().min(1, { error: message, abort: true });

export const rutSchema = z
  .string({ error: messages.rut })
  .trim()
  .max(MAX_RUT_LENGTH, atMost(MAX_RUT_LENGTH, messages.rut))
  .refine(isValidRut, { error: messages.rut });

export const loginPasswordSchema = z
  .string({ error: messages.required })
  .min(1, { error: messages.required, abort: true })
  .max(200, atMost(200, messages.loginPassword))
  .min(8, { error: messages.loginPassword });

// "At least one lower-case letter, one upper-case letter and one digit" as three searches (no lookaheads).
const lowerCase = linearPattern("[a-z]");
const upperCase = linearPattern("[A-Z]");
const digit = linearPattern("[0-9]");
export const newPasswordSchema = z
  .string({ error: messages.required })
  .min(1, { error: messages.required, abort: true })
  .max(200, atMost(200, messages.newPassword))
  .refine((value) => value.length >= 8 && lowerCase.contains(value) && upperCase.contains(value) && digit.contains(value), {
    error: messages.newPassword,
  });

/** The fields of a new password and its confirmation (the API document describes the loose inputs with them). */
export const passwordPairFields = {
  password: newPasswordSchema,
  passwordConfirmation: z
    .string({ error: messages.required })
    .min(1, { error: messages.required })
    .max(200, atMost(200, messages.required)),
};

/** New password + confirmation; the mismatch message sits on passwordConfirmation. */
export const passwordPairSchema = z
  .object(passwordPairFields)
  .refine((v) => v.password === v.passwordConfirmation, { error: messages.passwordMismatch, path: ["passwordConfirmation"] });

const namePattern = linearPattern("[A-Za-zÀ-ÖØ-öø-ÿ' ]*");
export const personNameSchema = requiredString().max(80, atMost(80, messages.name)).refine(matching(namePattern), { error: messages.name });
/** Optional middle name (SPEC §3 secondName): empty allowed, letters only otherwise. */
export const optionalNameSchema = z
  .string()
  .trim()
  .max(80, atMost(80, messages.name))
  .refine(matching(namePattern), { error: messages.name });

// local@domain.tld: no spaces, exactly one @, a dot in the domain with something on both sides of it.
const emailPattern = linearPattern("[^\\s@]+@[^\\s@]+\\.[^\\s@]+");
export const emailSchemaWith = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, { error: message, abort: true })
    .max(254, atMost(254, message))
    .refine(matching(emailPattern), { error: message });
export const emailSchema = emailSchemaWith(messages.email);
export const adminEditEmailSchema = emailSchemaWith(messages.emailAdminEdit);
export const createUserEmailSchema = emailSchemaWith(messages.emailCreateUser);

/**
 * Issue 33: a phone as people write it, in one stored form. Spaces, dots and parentheses go; a Chilean number of nine
 * digits, with or without +56 ('+56 9 8765 4321', '9 8765 4321', '987654321', '2 2345 6789'), becomes E.164
 * ('+56987654321'); anything else keeps its digits, + and - as typed (SPEC §5 still decides whether it is valid).
 */
export function normalizePhone(value: string): string {
  const compact = value.trim().replace(/[\s().]/g, "");
  const digits = compact.replace(/-/g, "");
  if (/^(\+?56)?[0-9]{9}$/.test(digits)) return `+56${digits.slice(-9)}`;
  return compact;
}

// Once /^\+?\d+(-?\d+)*$/: nested quantifiers that backtracked exponentially on "1"×30 + "a" (issue 9).
const phonePattern = linearPattern("\\+?[0-9]+(-[0-9]+)*");
export const phoneSchema = z
  .string({ error: messages.phone })
  .max(40, atMost(40, messages.phone))
  .transform(normalizePhone)
  .pipe(
    z
      .string()
      .max(20, atMost(20, messages.phone))
      .min(8, { error: messages.phone, abort: true })
      // SPEC §5: digits with optional + or - separators (no letters or other signs once spaces are taken out).
      .refine(matching(phonePattern), { error: messages.phone }),
  );

const isoDay = linearPattern("[0-9]{4}-[0-9]{2}-[0-9]{2}");
/** Birth date as "YYYY-MM-DD" (or an ISO timestamp): a real date, not in the future. */
export const birthDateSchema = z
  .string({ error: messages.birthDate })
  .trim()
  .max(30, atMost(30, messages.birthDate))
  .refine(
    (value) => {
      const day = value.slice(0, 10);
      if (!isoDay.matches(day)) return false;
      const date = dayToDate(day);
      return (
        !Number.isNaN(date.getTime()) &&
        date.toISOString().slice(0, 10) === day &&
        date.getTime() <= Date.now() &&
        date.getUTCFullYear() >= 1900
      );
    },
    { error: messages.birthDate },
  )
  .transform((value) => value.slice(0, 10));

const digits = linearPattern("[0-9]+");
export const digitsOnlySchema = requiredString()
  .max(20, atMost(20, messages.digitsOnly))
  .refine(matching(digits), { error: messages.digitsOnly });

export const roleTypeSchema = z.union([z.literal(0), z.literal(1), z.literal(2)], { error: "Tipo de usuario inválido" });

/** Personal data a user edits (SPEC §2 'Mi cuenta', §3 User). */
export const profileSchema = z.object({
  firstName: personNameSchema,
  secondName: optionalNameSchema.optional(),
  lastName: personNameSchema,
  secondLastName: personNameSchema,
  email: emailSchema,
  phoneNumber: phoneSchema,
  birthDate: birthDateSchema,
});

export { isProfileComplete } from "./profile.ts";

export const loginSchema = z.object({
  rut: rutSchema,
  password: loginPasswordSchema,
  clinic: z.string().trim().max(60).optional(),
});

export const createUserSchema = z.object({
  rut: rutSchema,
  email: createUserEmailSchema,
  roleType: roleTypeSchema.default(2),
  rcrLink: z.string().trim().max(500).optional(),
});

/** First message of a zod error, for 400 answers and form banners. */
export function firstIssueMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? "Datos inválidos";
}
