import { describe, expect, it } from "vitest";
import type { z } from "zod";
import {
  adminEditEmailSchema,
  birthDateSchema,
  createUserEmailSchema,
  digitsOnlySchema,
  emailSchema,
  firstIssueMessage,
  isProfileComplete,
  loginPasswordSchema,
  messages,
  newPasswordSchema,
  passwordPairSchema,
  personNameSchema,
  phoneSchema,
  profileSchema,
  rutSchema,
} from "./validation.ts";

function messageOf(schema: z.ZodType, value: unknown): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : firstIssueMessage(result.error);
}

describe("SPEC §5 validation rules and their Spanish messages", () => {
  it("Rut: required and valid, else 'Rut inválido'", () => {
    expect(messageOf(rutSchema, "12.345.678-5")).toBeNull();
    expect(messageOf(rutSchema, "12.345.678-4")).toBe("Rut inválido");
    expect(messageOf(rutSchema, "")).toBe("Rut inválido");
    expect(messageOf(rutSchema, undefined)).toBe("Rut inválido");
  });

  it("login password: required, at least 8 characters", () => {
    expect(messageOf(loginPasswordSchema, "12345678")).toBeNull();
    expect(messageOf(loginPasswordSchema, "1234567")).toBe(messages.loginPassword);
    expect(messageOf(loginPasswordSchema, "")).toBe("Campo Obligatorio");
  });

  it("new password: 8+ characters with a lowercase, an uppercase letter and a digit", () => {
    const rule = "El password debe tener al menos 8 caracteres, una letra minúscula, una letra mayúscula y un número";
    expect(messageOf(newPasswordSchema, "Segura2026")).toBeNull();
    expect(messageOf(newPasswordSchema, "")).toBe("Campo Obligatorio");
    for (const weak of ["Corta1", "sinmayuscula1", "SINMINUSCULA1", "SinNumeroAqui"]) expect(messageOf(newPasswordSchema, weak)).toBe(rule);
  });

  it("password confirmation must match: 'Las contraseñas no coinciden'", () => {
    expect(messageOf(passwordPairSchema, { password: "Segura2026", passwordConfirmation: "Segura2026" })).toBeNull();
    const result = passwordPairSchema.safeParse({ password: "Segura2026", passwordConfirmation: "Segura2027" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]).toMatchObject({ message: "Las contraseñas no coinciden", path: ["passwordConfirmation"] });
    expect(messageOf(passwordPairSchema, { password: "Segura2026", passwordConfirmation: "" })).toBe("Campo Obligatorio");
  });

  it("names: letters, spaces, accents and apostrophes only, else 'Solo letras'", () => {
    for (const name of ["María José", "Ñuñoa", "O'Higgins", "Pérez"]) expect(messageOf(personNameSchema, name)).toBeNull();
    for (const name of ["Juan2", "Ana-María", "<b>"]) expect(messageOf(personNameSchema, name)).toBe("Solo letras");
    expect(messageOf(personNameSchema, "")).toBe("Campo Obligatorio");
  });

  it("e-mail in its three wordings", () => {
    expect(messageOf(emailSchema, "ana@correo.cl")).toBeNull();
    for (const bad of ["ana", "ana@correo", "@correo.cl", "ana @correo.cl", ""]) {
      expect(messageOf(emailSchema, bad)).toBe("Correo electrónico inválido");
      expect(messageOf(adminEditEmailSchema, bad)).toBe("Email inválido");
      expect(messageOf(createUserEmailSchema, bad)).toBe("La dirección de correo es incorrecta");
    }
  });

  it("phone: 8+ characters, digits with optional + or - separators, else 'Solo caracteres numéricos'", () => {
    for (const phone of ["+56912345678", "912345678", "2-2345-6789"]) expect(messageOf(phoneSchema, phone)).toBeNull();
    for (const phone of ["1234567", "9123abc45", "++56912345678", "+56 9 1234 abcd", ""])
      expect(messageOf(phoneSchema, phone)).toBe("Solo caracteres numéricos");
  });

  it("phone: the Chilean ways of writing a number are accepted and stored as E.164 (issue 33)", () => {
    for (const phone of ["+56 9 8765 4321", "9 8765 4321", "987654321", "56987654321", "+56 (9) 8765-4321", " 9.8765.4321 "])
      expect(phoneSchema.parse(phone)).toBe("+56987654321");
    expect(phoneSchema.parse("2 2345 6789")).toBe("+56223456789");
    expect(phoneSchema.parse("+1-555-0100")).toBe("+1-555-0100");
  });

  it("birth date: a real date, not in the future, else 'La fecha es inválida'", () => {
    expect(messageOf(birthDateSchema, "1990-02-28")).toBeNull();
    expect(birthDateSchema.parse("1990-02-28T00:00:00.000Z")).toBe("1990-02-28");
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    for (const bad of [tomorrow, "1990-02-30", "28-02-1990", "", "1800-01-01"])
      expect(messageOf(birthDateSchema, bad)).toBe("La fecha es inválida");
  });

  it("digits-only fields: 'Solo números' (issue 33 corrects the spec's 'Solo numeros')", () => {
    expect(messageOf(digitsOnlySchema, "12345")).toBeNull();
    expect(messageOf(digitsOnlySchema, "12a45")).toBe("Solo números");
  });

  it("profile completeness needs first name, both last names, phone, e-mail and birth date", () => {
    const complete = {
      firstName: "Ana",
      lastName: "Rojas",
      secondLastName: "Díaz",
      phoneNumber: "+56912345678",
      email: "ana@correo.cl",
      birthDate: "1990-01-01",
    };
    expect(isProfileComplete(complete)).toBe(true);
    for (const field of Object.keys(complete)) {
      expect(isProfileComplete({ ...complete, [field]: null })).toBe(false);
      expect(isProfileComplete({ ...complete, [field]: "  " })).toBe(false);
    }
  });

  it("the profile form schema drops fields a user may not set", () => {
    const parsed = profileSchema.parse({
      firstName: "Ana",
      lastName: "Rojas",
      secondLastName: "Díaz",
      email: "ana@correo.cl",
      phoneNumber: "+56912345678",
      birthDate: "1990-01-01",
      roleType: 0,
      rut: "11.111.111-1",
      hasChangedPassword: true,
    });
    expect(parsed).not.toHaveProperty("roleType");
    expect(parsed).not.toHaveProperty("rut");
    expect(parsed).not.toHaveProperty("hasChangedPassword");
  });
});
