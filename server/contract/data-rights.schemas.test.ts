import { describe, expect, it } from "vitest";
import { PATIENT_EDITABLE_FIELDS } from "./profile.ts";
import { RECTIFIABLE_FIELDS, ZCreateRightsRequest } from "./data-rights.schemas.ts";

// Issue 45 §5: one truth about what the patient edits. 'Solicitudes' offers to rectify only what 'Datos personales'
// does not let them change.
describe("the fields a patient may ask to rectify", () => {
  it("are none of those they edit themself in 'Datos personales'", () => {
    const editable: readonly string[] = PATIENT_EDITABLE_FIELDS;
    expect(RECTIFIABLE_FIELDS.filter((field) => editable.includes(field))).toEqual([]);
  });

  it("refuse a request to rectify an editable one, with the field's own message", () => {
    const result = ZCreateRightsRequest.safeParse({ kind: "rectification", field: "birthDate", correctValue: "14-02-1985" });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe("Seleccione el dato que está incorrecto");
    expect(ZCreateRightsRequest.safeParse({ kind: "rectification", field: "rut", correctValue: "12.345.678-5" }).success).toBe(true);
  });
});
