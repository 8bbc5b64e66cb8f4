import { describe, expect, it } from "vitest";
import { z } from "zod";
import "../contract/validation.ts";
import { AppError } from "../lib/errors.ts";
import { toErrorBody } from "./error-handler.ts";

describe("error answers", () => {
  it("keeps the status and Spanish message of an AppError", () => {
    expect(toErrorBody(new AppError("CONFLICT", "Ya existe una cuenta con el Rut 12.345.678-5"))).toEqual({
      statusCode: 409,
      error: "CONFLICT",
      message: "Ya existe una cuenta con el Rut 12.345.678-5",
    });
  });

  it("turns a zod error into a 400 with the rule's message", () => {
    const result = z.object({ rut: z.string({ error: "Rut inválido" }) }).safeParse({});
    expect(toErrorBody(result.error)).toMatchObject({ statusCode: 400, message: "Rut inválido" });
  });

  it("hides the details of an unexpected error behind a generic 500", () => {
    const body = toErrorBody(new Error('relation "User" does not exist at /work/server/db.ts:12'));
    expect(body).toEqual({ statusCode: 500, error: "INTERNAL", message: "Error de sistema, por favor vuelva a intentarlo" });
  });

  it("answers Fastify's client errors in Spanish", () => {
    expect(
      toErrorBody(Object.assign(new Error("Unexpected token"), { statusCode: 400, code: "FST_ERR_CTP_INVALID_JSON_BODY" })),
    ).toMatchObject({
      statusCode: 400,
      message: "El cuerpo de la solicitud no es un JSON válido",
    });
    expect(toErrorBody(Object.assign(new Error("too large"), { statusCode: 413, code: "FST_ERR_CTP_BODY_TOO_LARGE" })).message).toBe(
      "La solicitud supera el tamaño máximo permitido",
    );
  });
});
