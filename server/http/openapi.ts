import { z } from "zod";
import { ZErrorBody } from "../contract/api.dto.ts";
import { clinicParam } from "../contract/params.ts";
import type { RouteAccess } from "./route-access.ts";
import type { RouteDocs } from "./route-docs.ts";

// The OpenAPI 3.1 document of the /api/rcr/v1 contract, built from the live route table: each route's `docs` (its
// zod schemas, the same objects its service validates with) through zod 4's own z.toJSONSchema. Not @fastify/swagger:
// it reads Fastify route `schema`s, and declaring those would make Fastify validate with ajv (other error messages and
// shape than the portal's Spanish ones); generating from the zod schemas directly needs no second schema language.

type JsonSchema = Record<string, unknown>;
type Operation = Record<string, unknown>;

export interface DocumentedRoute {
  method: string;
  url: string;
  access: RouteAccess | undefined;
  docs: RouteDocs | undefined;
  /** A route acting for a dependent (X-Actuar-Por): its refusals count against the account's limit (429). */
  caregiverPart?: string;
}

const errorDescriptions: Record<number, string> = {
  400: "Entrada inválida: el mensaje dice en español qué regla no se cumple",
  401: "Falta el token de acceso, es inválido o expiró",
  403: "No tiene permiso para esta acción",
  404: "Recurso no encontrado",
  409: "Conflicto con el estado actual (p. ej. un registro duplicado)",
  413: "El archivo o la solicitud supera el tamaño máximo",
  414: "Un parámetro de la dirección supera los 100 caracteres",
  415: "El tipo de contenido del cuerpo no es el documentado",
  429: "Demasiados intentos: espere antes de volver a intentarlo",
  431: "Las cabeceras de la solicitud (o la dirección) superan el tamaño máximo",
  502: "Un proveedor externo falló",
  504: "Un proveedor externo no respondió a tiempo",
};

/** JSON Schema (draft 2020-12, the dialect of OpenAPI 3.1) of what a client sends ("input") or receives ("output"). */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  // Preprocessed and transformed fields are described by the schema they end in; "any" keeps a refinement-only rule.
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" });
  return json;
}

/** "/api/rcr/v1/admin/:id" → "/api/rcr/v1/admin/{id}". */
export const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, "{$1}");

const pathParamNames = (url: string) => [...url.matchAll(/:([A-Za-z0-9_]+)/g)].map((match) => match[1]!);

function parameters(where: "path" | "query", schema: z.ZodObject | undefined): JsonSchema[] {
  if (!schema) return [];
  const json = jsonSchemaOf(schema, "input") as { properties?: Record<string, JsonSchema>; required?: string[] };
  return Object.entries(json.properties ?? {}).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === "path" || (json.required ?? []).includes(name),
      ...(description ? { description } : {}),
      schema: rest,
    };
  });
}

function requestBody(docs: RouteDocs): JsonSchema | undefined {
  const content: Record<string, unknown> = {};
  if (docs.body) content["application/json"] = { schema: jsonSchemaOf(docs.body, "input") };
  if (docs.multipart) {
    const fields = docs.multipart.fields ? jsonSchemaOf(docs.multipart.fields, "input") : { type: "object", properties: {} };
    const pdf = { type: "string", contentMediaType: "application/pdf", format: "binary" };
    const minItems = docs.multipart.filesRequired ? 1 : 0;
    const files = Object.fromEntries(docs.multipart.files.map((name) => [name, { type: "array", items: pdf, minItems }]));
    const required = [...((fields.required as string[] | undefined) ?? []), ...(docs.multipart.filesRequired ? docs.multipart.files : [])];
    content["multipart/form-data"] = {
      schema: { ...fields, properties: { ...(fields.properties as object), ...files }, ...(required.length ? { required } : {}) },
      encoding: Object.fromEntries(docs.multipart.files.map((name) => [name, { contentType: "application/pdf" }])),
    };
  }
  return Object.keys(content).length > 0 ? { required: true, content } : undefined;
}

function okResponse(response: RouteDocs["response"]): JsonSchema {
  if ("file" in response) {
    return { description: response.description, content: { [response.file]: { schema: { type: "string", format: "binary" } } } };
  }
  return { description: "Respuesta correcta", content: { "application/json": { schema: jsonSchemaOf(response, "output") } } };
}

/**
 * The errors a route can answer: 400 (every call checks ?clinic=), 401/403 by its access, 404 and 414 (a parameter
 * past Fastify's 100 characters) with a path parameter, 413/415 with a body, 429 when it acts for a dependent (refused
 * reaches are limited per account: server/lib/refused-access.ts), and 431 anywhere (Node's header limit, which counts
 * the address too: server/http/client-errors.ts).
 */
function errorStatuses(route: DocumentedRoute, docs: RouteDocs): number[] {
  const statuses = new Set<number>([400, 431, ...(docs.errors ?? [])]);
  if (docs.body || docs.multipart) [413, 415].forEach((status) => statuses.add(status));
  const bearer = route.access !== "public" && route.access !== "signed";
  if (bearer) statuses.add(401);
  if (route.access !== "public") statuses.add(403);
  if (pathParamNames(route.url).length > 0) [404, 414].forEach((status) => statuses.add(status));
  if (route.caregiverPart) statuses.add(429);
  return [...statuses].sort((a, b) => a - b);
}

const accessNotes: Record<RouteAccess, string> = {
  public: "Acceso: público, sin token.",
  signed: "Acceso: el enlace firmado y vigente es la credencial (sus parámetros de consulta); sin token.",
  user: "Acceso: cualquier usuario con sesión.",
  patient: "Acceso: pacientes.",
  staff: "Acceso: administradores y ejecutivos.",
  admin: "Acceso: administradores.",
};

function operation(route: DocumentedRoute, docs: RouteDocs): Operation {
  const access = route.access ?? "user";
  const query = parameters("query", docs.querystring);
  // SPEC §7: most calls add ?clinic=; the prefix checks it on every route, so every route documents it.
  if (!query.some((parameter) => parameter.name === "clinic")) {
    query.push({
      name: "clinic",
      in: "query",
      required: false,
      description: "Clínica del sitio (p. ej. maitenes)",
      schema: jsonSchemaOf(clinicParam, "input"),
    });
  }
  const body = requestBody(docs);
  const errors = Object.fromEntries(
    errorStatuses(route, docs).map((status) => [
      String(status),
      {
        description: errorDescriptions[status] ?? "Error",
        content: { "application/json": { schema: { $ref: "#/components/schemas/ErrorBody" } } },
      },
    ]),
  );
  return {
    operationId: `${route.method.toLowerCase()}${openApiPath(route.url).replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? "").toUpperCase())}`,
    summary: docs.summary,
    description: [docs.description, accessNotes[access]].filter(Boolean).join("\n\n"),
    tags: [docs.tag],
    security: access === "public" || access === "signed" ? [] : [{ bearerAuth: [] }],
    "x-access": access,
    parameters: [...parameters("path", docs.params), ...query],
    ...(body ? { requestBody: body } : {}),
    responses: { "200": okResponse(docs.response), ...errors },
  };
}

/**
 * The OpenAPI 3.1 document of every documented route under `prefix`. A route without `docs` is left out (and the API
 * docs test fails, naming it); HEAD routes Fastify adds for each GET are not operations of their own.
 */
export function openApiDocument(routes: readonly DocumentedRoute[], prefix: string, version: string): JsonSchema {
  const paths: Record<string, Record<string, Operation>> = {};
  const tags = new Set<string>();
  for (const route of routes) {
    if (!route.url.startsWith(prefix) || !route.docs || route.method === "HEAD" || route.method === "OPTIONS") continue;
    tags.add(route.docs.tag);
    (paths[openApiPath(route.url)] ??= {})[route.method.toLowerCase()] = operation(route, route.docs);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Portal Pacientes: API REST",
      version,
      description:
        "Contrato REST /api/rcr/v1 del Portal Pacientes. Los errores responden { statusCode, error, message } con el mensaje en español.",
    },
    servers: [{ url: "/" }],
    tags: [...tags].map((name) => ({ name })),
    paths,
    components: {
      schemas: { ErrorBody: jsonSchemaOf(ZErrorBody, "output") },
      securitySchemes: { bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
    },
  };
}
