import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_PREFIX, type RouteTableEntry } from "../../server/app.ts";
import { openApiDocument, openApiPath } from "../../server/http/openapi.ts";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";

interface Operation {
  summary: string;
  security: unknown[];
  parameters: Array<{ name: string; in: string; required: boolean; schema: object }>;
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
}
type OpenApi = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { schemas: object } };

// POST routes of the contract that take no body at all (SPEC §7's terms acceptance: 'empty body'; logout; issue 28's
// 'Descargar mis datos').
const noBody = new Set([
  "POST /api/rcr/v1/term-conditions/accept",
  "POST /api/rcr/v1/auth/logout",
  "POST /api/rcr/v1/auth/second-factor/setup",
  "POST /api/rcr/v1/auth/sessions/end-others",
  "POST /api/rcr/v1/patient/data-export",
  // The session comes in the HttpOnly cookie the ClaveÚnica callback left, not in a body.
  "POST /api/rcr/v1/auth/claveunica/session",
  // The appointment is the path's id; cancelling or confirming it carries nothing else.
  "POST /api/rcr/v1/appointments/:id/cancel",
  "POST /api/rcr/v1/appointments/:id/confirm",
]);

/** What is wrong with the document's entry of each REST route of the contract; empty when every route is documented. */
function problems(routes: readonly RouteTableEntry[], document: OpenApi): string[] {
  const found: string[] = [];
  for (const route of routes.filter((r) => r.url.startsWith(API_PREFIX) && r.method !== "HEAD" && r.method !== "OPTIONS")) {
    const name = `${route.method} ${route.url}`;
    const operation = document.paths[openApiPath(route.url)]?.[route.method.toLowerCase()];
    if (!operation) {
      found.push(`${name}: not in the document (its route declares no docs)`);
      continue;
    }
    const pathParams = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]).sort();
    const documented = operation.parameters.filter((p) => p.in === "path").map((p) => p.name);
    if (JSON.stringify(documented.sort()) !== JSON.stringify(pathParams)) found.push(`${name}: path parameters ${documented}`);
    const takesBody = ["POST", "PUT", "PATCH"].includes(route.method) && !noBody.has(name);
    if (takesBody && !operation.requestBody) found.push(`${name}: no request body`);
    if (!operation.responses["200"]?.content) found.push(`${name}: no 200 response schema`);
    if (!operation.summary) found.push(`${name}: no summary`);
  }
  return found;
}

let ctx: TestContext;
let document: OpenApi;
beforeAll(async () => {
  ctx = await createTestContext();
  document = (await ctx.app.inject({ method: "GET", url: "/api/docs/openapi.json" })).json();
});
afterAll(() => ctx.close());

describe("GET /api/docs/openapi.json", () => {
  it("is a valid OpenAPI 3.1 document, served without login", async () => {
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
  });

  it("documents every REST route of /api/rcr/v1 with its method, {params}, request schema and 200 schema", () => {
    expect(problems(ctx.app.routeTable, document)).toEqual([]);
    const documentedOperations = Object.values(document.paths).flatMap((ops) => Object.keys(ops)).length;
    const restRoutes = ctx.app.routeTable.filter((r) => r.url.startsWith(API_PREFIX) && r.method !== "HEAD").length;
    expect(documentedOperations).toBe(restRoutes);
  });

  it("fails for a route added without docs, naming it", () => {
    const added: RouteTableEntry = {
      method: "GET",
      url: `${API_PREFIX}/admin/audit/:id`,
      access: "staff",
      firstLogin: false,
      secondFactor: false,
      docs: undefined,
    };
    const routes = [...ctx.app.routeTable, added];
    expect(problems(routes, openApiDocument(routes, API_PREFIX, "test") as OpenApi)).toEqual([
      "GET /api/rcr/v1/admin/audit/:id: not in the document (its route declares no docs)",
    ]);
  });

  it("asks for the bearer token exactly on the routes that need a session, and answers errors with the shared body", () => {
    for (const route of ctx.app.routeTable.filter((r) => r.url.startsWith(API_PREFIX) && r.method !== "HEAD")) {
      const operation = document.paths[openApiPath(route.url)]![route.method.toLowerCase()]!;
      const open = route.access === "public" || route.access === "signed";
      expect(operation.security, `${route.method} ${route.url}`).toEqual(open ? [] : [{ bearerAuth: [] }]);
      expect(Object.keys(operation.responses)).toContain(open ? "400" : "401");
      expect(operation.responses["400"]!.content!["application/json"]!.schema).toEqual({ $ref: "#/components/schemas/ErrorBody" });
    }
    expect(document.paths["/api/rcr/v1/files/download/{path}"]!.get!.parameters.map((p) => p.name)).toEqual(
      expect.arrayContaining(["token"]),
    );
  });

  it("describes uploads as multipart PDFs (files/upload needs at least one) and downloads as application/pdf", () => {
    const upload = document.paths["/api/rcr/v1/files/upload"]!.post!.requestBody!.content["multipart/form-data"]!.schema;
    expect(upload).toMatchObject({
      properties: { file: { type: "array", items: { contentMediaType: "application/pdf" }, minItems: 1 } },
      required: ["file"],
    });
    const download = document.paths["/api/rcr/v1/files/download/{path}"]!.get!.responses["200"]!.content!;
    expect(Object.keys(download)).toEqual(["application/pdf"]);
  });
});

/** Where an operation's inputs say less than the server enforces: any value ({}), or a string with no bound or form. */
function vagueInputs(document: OpenApi): string[] {
  const found: string[] = [];
  const walk = (schema: unknown, where: string) => {
    if (!schema || typeof schema !== "object") return;
    if (Array.isArray(schema)) return schema.forEach((item, i) => walk(item, `${where}[${i}]`));
    const node = schema as Record<string, unknown>;
    // Accepted and ignored (an amount the server never trusts) is exact when it says so.
    if (Object.keys(node).length === 0) found.push(`${where}: any value`);
    const bounded = ["pattern", "enum", "const", "format", "maxLength", "contentMediaType"].some((key) => key in node);
    if (node.type === "string" && !bounded) found.push(`${where}: a string of any form and length`);
    for (const [key, value] of Object.entries(node)) if (key !== "description") walk(value, `${where}.${key}`);
  };
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const name = `${method.toUpperCase()} ${path}`;
      for (const parameter of operation.parameters) walk(parameter.schema, `${name} ${parameter.in} ${parameter.name}`);
      for (const [type, content] of Object.entries(operation.requestBody?.content ?? {})) walk(content.schema, `${name} body (${type})`);
    }
  }
  return found;
}

describe("the document says what the server enforces (issue 42, point 10)", () => {
  it("types every parameter and body field: no bare strings, no 'any value' but for what is said to be ignored", () => {
    expect(vagueInputs(document)).toEqual([]);
  });

  it("documents the answers every operation can give before its handler: 431 always, 414 with a path parameter, 413 and 415 with a body", () => {
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const statuses = Object.keys(operation.responses);
        const name = `${method.toUpperCase()} ${path}`;
        expect(statuses, name).toContain("431");
        if (path.includes("{")) expect(statuses, name).toContain("414");
        if (operation.requestBody) expect(statuses, name).toEqual(expect.arrayContaining(["413", "415"]));
      }
    }
  });

  it("fails for a parameter typed as a bare string, naming it", () => {
    const loose = structuredClone(document);
    loose.paths["/api/rcr/v1/patient/accesses"]!.get!.parameters.push({
      name: "page",
      in: "query",
      required: false,
      schema: { type: "string" },
    });
    expect(vagueInputs(loose)).toEqual(["GET /api/rcr/v1/patient/accesses query page: a string of any form and length"]);
  });
});

describe("the documented response schemas", () => {
  // The document's own JSON schemas (objects closed with additionalProperties: false) checked against real answers.
  const ajv = new Ajv2020({ strict: false });
  async function check(
    method: "GET" | "POST",
    path: string,
    init: { headers?: Record<string, string>; payload?: object } = {},
    template = path.split("?")[0],
  ) {
    const response = await ctx.app.inject({ method, url: api(path), ...init });
    expect(response.statusCode, response.body).toBe(200);
    const operation = document.paths[openApiPath(`${API_PREFIX}${template}`)]![method.toLowerCase()]!;
    const validate = ajv.compile(operation.responses["200"]!.content!["application/json"]!.schema);
    expect(validate(response.json()), JSON.stringify(validate.errors)).toBe(true);
  }

  it("match what login, the account, the user list, the bill list and a clinic's settings answer", async () => {
    await check("POST", "/auth/admin-login", { payload: { rut: demo.admin.rut, password: demo.admin.password } });
    const admin = bearer(await ctx.login(demo.admin.rut, demo.admin.password, "staff"));
    await check("GET", "/auth/me", { headers: admin });
    await check("GET", "/admin/filter/users?page=1", { headers: admin });
    await check("GET", "/files/filter/users", { headers: admin });
    await check("GET", "/clinics/maitenes/settings", {}, "/clinics/:key/settings");
    await check("GET", "/health");
  });
});

describe("GET /api/docs", () => {
  it("serves the browsable page and its Swagger UI files from the portal itself", async () => {
    const page = await ctx.app.inject({ method: "GET", url: "/api/docs" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/text\/html/);
    const scripts = [...page.body.matchAll(/src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts).toEqual(["/api/docs/assets/swagger-ui-bundle.js", "/api/docs/swagger-init.js"]);
    for (const src of scripts) expect((await ctx.app.inject({ method: "GET", url: src })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: "GET", url: "/api/docs/assets/package.json" })).statusCode).toBe(404);
  });
});
