import { describe, expect, it } from "vitest";
import { jsonSchemaOf } from "../../http/openapi.ts";
import { ZLoginInput } from "./auth.service.ts";

describe("the API document's login body", () => {
  it("has the rules of the zod schema the login validates with: rut and password required, password 8 to 200 characters", () => {
    const schema = jsonSchemaOf(ZLoginInput, "input") as { required: string[]; properties: Record<string, Record<string, unknown>> };
    expect(schema.required.sort()).toEqual(["password", "rut"]);
    expect(schema.properties.password).toMatchObject({ type: "string", minLength: 8, maxLength: 200 });
    expect(schema.properties.clinic).toMatchObject({ type: "string" });
    // The same rules, as the service applies them.
    expect(ZLoginInput.safeParse({ rut: "11.111.111-1", password: "1234567" }).success).toBe(false);
    expect(ZLoginInput.safeParse({ password: "12345678" }).success).toBe(false);
  });
});
