import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ZPaging } from "../contract/params.ts";
import { jsonSchemaOf, openApiDocument, openApiPath } from "./openapi.ts";

describe("jsonSchemaOf", () => {
  it("describes query strings as the client sends them: page and limit optional with their defaults and bounds", () => {
    const schema = jsonSchemaOf(ZPaging, "input") as { required?: string[]; properties: Record<string, Record<string, unknown>> };
    expect(schema.required ?? []).toEqual([]);
    expect(schema.properties.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 100, default: 10 });
  });
});

describe("openApiDocument", () => {
  const route = (access: "public" | "staff") => ({
    method: "PATCH",
    url: "/api/rcr/v1/admin/:id",
    access,
    docs: {
      tag: "Usuarios",
      summary: "Actualiza",
      params: z.object({ id: z.number() }),
      body: z.object({ a: z.string() }),
      response: z.object({ ok: z.boolean() }),
    },
  });

  it("turns :params into {params}, and gives a staff route the bearer scheme and its 401, 403, 404 and 414 answers, and 413/415 for its body", () => {
    expect(openApiPath("/api/rcr/v1/files/list/:accountId")).toBe("/api/rcr/v1/files/list/{accountId}");
    const document = openApiDocument([route("staff")], "/api/rcr/v1", "1") as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const operation = document.paths["/api/rcr/v1/admin/{id}"]!.patch!;
    expect(operation.security).toEqual([{ bearerAuth: [] }]);
    expect(Object.keys(operation.responses as object)).toEqual(["200", "400", "401", "403", "404", "413", "414", "415", "431"]);
  });

  it("leaves out routes without docs and the routes outside the contract's prefix", () => {
    const document = openApiDocument(
      [
        { ...route("public"), docs: undefined },
        { ...route("public"), url: "/trpc/x" },
      ],
      "/api/rcr/v1",
      "1",
    ) as { paths: object };
    expect(document.paths).toEqual({});
  });
});
