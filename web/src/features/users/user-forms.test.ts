import { describe, expect, it } from "vitest";
import { chipModel, createUserFormSchema, editUserFormSchema, privilegePlan } from "./user-forms.ts";

const base = { viewerIsAdmin: true, savedClinics: [] as string[], selectedClinics: [] as string[] };

describe("privilegePlan (what 'Guardar cambios' sends besides the user update)", () => {
  it("sends nothing when an executive viewer saves", () => {
    expect(privilegePlan({ ...base, viewerIsAdmin: false, savedRole: 1, newRole: 1, selectedClinics: ["maitenes"] })).toEqual({
      clearBefore: false,
      setAfter: null,
    });
  });

  it("sends an executive's changed clinics after the update", () => {
    expect(
      privilegePlan({ ...base, savedRole: 1, newRole: 1, savedClinics: ["hcs-rcr"], selectedClinics: ["hcs-rcr", "maitenes"] }),
    ).toEqual({
      clearBefore: false,
      setAfter: ["hcs-rcr", "maitenes"],
    });
  });

  it("skips the privileges when an executive's clinics did not change, whatever their order", () => {
    expect(privilegePlan({ ...base, savedRole: 1, newRole: 1, savedClinics: ["a", "b"], selectedClinics: ["b", "a"] })).toEqual({
      clearBefore: false,
      setAfter: null,
    });
  });

  it("sends the clinics of a user who just became an executive", () => {
    expect(privilegePlan({ ...base, savedRole: 2, newRole: 1, selectedClinics: ["portada-rcr"] })).toEqual({
      clearBefore: false,
      setAfter: ["portada-rcr"],
    });
  });

  it("clears an executive's clinics first when the saved role is no longer executive", () => {
    expect(privilegePlan({ ...base, savedRole: 1, newRole: 2, savedClinics: ["maitenes"], selectedClinics: ["maitenes"] })).toEqual({
      clearBefore: true,
      setAfter: null,
    });
  });

  it("sends no privileges for a patient or admin who never had clinics", () => {
    expect(privilegePlan({ ...base, savedRole: 2, newRole: 2 })).toEqual({ clearBefore: false, setAfter: null });
    expect(privilegePlan({ ...base, savedRole: 2, newRole: 0 })).toEqual({ clearBefore: false, setAfter: null });
  });
});

describe("chipModel (SPEC §9: two chips, then '+N')", () => {
  it("shows every chip up to two", () => {
    expect(chipModel(["a", "b"])).toEqual({ chips: ["a", "b"], more: 0 });
  });

  it("counts the rest after the first two", () => {
    expect(chipModel(["a", "b", "c", "d"])).toEqual({ chips: ["a", "b"], more: 2 });
  });
});

describe("edit-user form rules", () => {
  const valid = {
    firstName: "",
    secondName: "",
    lastName: "",
    secondLastName: "",
    email: "nuevo@correo.cl",
    phoneNumber: "",
    birthDate: "",
  };
  const firstMessage = (values: typeof valid) => {
    const result = editUserFormSchema.safeParse(values);
    return result.success ? null : result.error.issues[0]?.message;
  };

  it("accepts the empty personal data of a new account", () => {
    expect(firstMessage(valid)).toBeNull();
  });

  it("checks a filled field with the contract rule and message", () => {
    expect(firstMessage({ ...valid, firstName: "Juan3" })).toBe("Solo letras");
    expect(firstMessage({ ...valid, phoneNumber: "12ab" })).toBe("Solo caracteres numéricos");
    expect(firstMessage({ ...valid, birthDate: "2999-01-01" })).toBe("La fecha es inválida");
  });

  it("requires the e-mail with the admin screen's message", () => {
    expect(firstMessage({ ...valid, email: "" })).toBe("Email inválido");
    expect(firstMessage({ ...valid, email: "sin-arroba" })).toBe("Email inválido");
  });
});

describe("create-user form rules", () => {
  it("needs a valid Rut and e-mail, with the create-user messages", () => {
    expect(createUserFormSchema.safeParse({ rut: "12.345.678-5", email: "a@b.cl" }).success).toBe(true);
    const result = createUserFormSchema.safeParse({ rut: "12.345.678-9", email: "a@b" });
    expect(result.success ? [] : result.error.issues.map((issue) => issue.message)).toEqual([
      "Rut inválido",
      "La dirección de correo es incorrecta",
    ]);
  });
});
