import fc from "fast-check";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, bearer, createTestContext, demo, type TestContext } from "../helpers/test-app.ts";
import { multipartBody, pdfBytes } from "../helpers/multipart.ts";
import { invalidArb, validArb, type Schema } from "./support/schema-arbitrary.ts";

// Issue 42, point 10: the OpenAPI document (/api/docs/openapi.json) drives a property-based fuzz of every operation in
// each auth mode (none, patient, staff), so the document and the server cannot drift apart: inputs generated from each
// operation's schemas, valid and invalid; no 5xx; every answer's status is one the operation documents and its body
// matches the documented schema; nothing is accepted without a valid token or by a role the operation does not admit;
// nothing the document calls invalid is accepted. A fixed seed and a bounded number of runs keep it reproducible and
// short; FUZZ_RUNS and FUZZ_SEED make a longer or another run (docs/seguridad.md).

const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
const SEED = Number(process.env.FUZZ_SEED ?? 42);

interface Parameter {
  name: string;
  in: "path" | "query";
  required: boolean;
  schema: Schema;
}
interface Operation {
  security: unknown[];
  "x-access": "public" | "signed" | "user" | "patient" | "staff" | "admin";
  parameters: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
type Document = Schema & { paths: Record<string, Record<string, Operation>> };
type Mode = "none" | "patient" | "staff";
const modes: Mode[] = ["none", "patient", "staff"];

let ctx: TestContext;
let document: Document;
const tokens: Record<Exclude<Mode, "none">, string> = { patient: "", staff: "" };
const ajv = new Ajv2020({ strict: false, allErrors: false });

beforeAll(async () => {
  // The fuzz is not about guessing: wrong passwords it sends must not lock the accounts it signs in with.
  ctx = await createTestContext({
    LOGIN_MAX_FAILURES_PER_PAIR: "100000",
    LOGIN_MAX_FAILURES_PER_RUT: "100000",
    LOGIN_MAX_FAILURES_PER_IP: "100000",
  });
  document = (await ctx.app.inject({ method: "GET", url: "/api/docs/openapi.json" })).json();
  ajv.addSchema({ ...document, $id: "openapi" }, "openapi");
});
afterAll(() => ctx.close());

/** Signs in again whoever an earlier operation signed out (logout, 'Cerrar las demás sesiones'). */
async function freshTokens(): Promise<void> {
  for (const mode of ["patient", "staff"] as const) {
    const valid =
      tokens[mode] &&
      (await ctx.app.inject({ method: "GET", url: api("/auth/validate-token"), headers: bearer(tokens[mode]) })).statusCode === 200;
    if (!valid)
      tokens[mode] =
        mode === "patient"
          ? await ctx.login(demo.patient.rut, demo.patient.password)
          : await ctx.login(demo.admin.rut, demo.admin.password, "staff");
  }
}

/** A validator of a schema of the document (its $refs resolved against the document). */
const validators = new Map<Schema, (value: unknown) => boolean>();
function validator(schema: Schema): (value: unknown) => boolean {
  let check = validators.get(schema);
  if (!check) {
    const compiled = ajv.compile(rebase(schema) as Schema);
    check = (value) => compiled(value) as boolean;
    validators.set(schema, check);
  }
  return check;
}
const rebase = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema).replaceAll('"$ref":"#/', '"$ref":"openapi#/')) as unknown;

interface Input {
  valid: boolean;
  path: Record<string, unknown>;
  query: Record<string, unknown>;
  body?: { type: string; value: unknown };
}

/** Parameters with one of them wrong or missing (never the group itself replaced: parameters are named). */
const invalidParameters = (group: Schema) =>
  invalidArb(group, document).filter((value) => !!value && typeof value === "object" && !Array.isArray(value));

/** A path parameter left out is sent empty ("/document//x"). */
const missingAsEmpty = (group: Schema) => Object.fromEntries(Object.keys(group.properties as object).map((name) => [name, ""]));

/** The operation's parameters and body as one object schema each, for the generators. */
function inputArb(operation: Operation): fc.Arbitrary<Input> {
  const group = (where: "path" | "query"): Schema => {
    const parameters = operation.parameters.filter((parameter) => parameter.in === where);
    return {
      type: "object",
      properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema])),
      required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    };
  };
  const [type, content] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
  const parts = { path: group("path"), query: group("query"), ...(content ? { body: content.schema } : {}) };
  const valid = fc.record({
    path: validArb(parts.path, document),
    query: validArb(parts.query, document),
    ...(parts.body ? { body: validArb(parts.body, document) } : {}),
  });
  // One part at a time is made invalid, the others stay valid (a part that takes nothing cannot be).
  const breakable = (Object.keys(parts) as Array<keyof typeof parts>).filter(
    (part) => part === "body" || Object.keys(parts[part]!.properties as object).length > 0,
  );
  if (breakable.length === 0)
    return valid.map((generated) => ({ valid: true, ...(generated as { path: object; query: object }) }) as Input);
  const invalid = fc.constantFrom(...breakable).chain((broken) =>
    fc.record({
      path: broken === "path" ? invalidParameters(parts.path) : validArb(parts.path, document),
      query: broken === "query" ? invalidParameters(parts.query) : validArb(parts.query, document),
      ...(parts.body ? { body: (broken === "body" ? invalidArb : validArb)(parts.body, document) } : {}),
    }),
  );
  return fc.oneof(valid, invalid).map((generated) => {
    const input = generated as { path: Record<string, unknown>; query: Record<string, unknown>; body?: unknown };
    // Parameters travel as text: judged as the server reads them ("4" is an integer, "false" a string).
    const conforms =
      validator(parts.path)(onWire(parts.path, { ...missingAsEmpty(parts.path), ...input.path })) &&
      validator(parts.query)(onWire(parts.query, input.query)) &&
      (!parts.body || validator(parts.body)(input.body));
    return {
      valid: conforms,
      path: input.path,
      query: input.query,
      ...(type && "body" in input ? { body: { type, value: input.body } } : {}),
    };
  });
}

const asParameter = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** The parameters as the server reads them: text, a number where the schema wants one and the text is one. */
function onWire(group: Schema, values: unknown): unknown {
  if (!values || typeof values !== "object" || Array.isArray(values)) return values;
  const properties = group.properties as Record<string, Schema>;
  return Object.fromEntries(
    Object.entries(values as Record<string, unknown>).map(([name, value]) => {
      const text = asParameter(value);
      const wanted = properties[name];
      const numeric = (wanted?.type === "integer" || wanted?.type === "number" || wanted?.anyOf) && /^-?\d+(\.\d+)?(e\d+)?$/.test(text);
      return [name, numeric ? Number(text) : text];
    }),
  );
}

async function send(method: string, template: string, input: Input, mode: Mode) {
  const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(asParameter(input.path[name] ?? "")));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(input.query ?? {})) if (value !== undefined) query.append(name, asParameter(value));
  const headers: Record<string, string> = mode === "none" ? {} : bearer(tokens[mode]);
  let payload: string | Buffer | undefined;
  if (input.body?.type === "multipart/form-data") {
    const { file, ...fields } = (input.body.value ?? {}) as Record<string, unknown>;
    const files = Array.isArray(file) ? file.map((_, i) => ({ name: `doc${i}.pdf`, content: pdfBytes(600) })) : [];
    const body = multipartBody(Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, asParameter(value)])), files);
    payload = body.payload;
    Object.assign(headers, body.headers);
  } else if (input.body) {
    payload = JSON.stringify(input.body.value ?? null);
    headers["content-type"] = "application/json";
  }
  // Each call from an address of its own: the login throttle counts per address, and the fuzz is not about it.
  const remoteAddress = `10.77.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}`;
  return ctx.app.inject({
    method: method.toUpperCase() as "GET",
    url: `${path}${query.size ? `?${query}` : ""}`,
    headers,
    payload,
    remoteAddress,
  });
}

const admits = (access: Operation["x-access"], mode: Mode) =>
  access === "public" ||
  access === "signed" ||
  (mode !== "none" && (access === "user" || (access === "patient" ? mode === "patient" : mode === "staff")));

describe("every operation of the OpenAPI document, fuzzed from its own schemas", () => {
  it(
    "answers only documented statuses and bodies, never 5xx, nothing to a caller it does not admit, nothing invalid accepted",
    async () => {
      const problems: string[] = [];
      const started = performance.now();
      let requests = 0;
      const operations = Object.entries(document.paths).flatMap(([path, operations]) =>
        Object.entries(operations).map(([method, operation]) => ({ method, path, operation })),
      );
      expect(operations.length).toBeGreaterThanOrEqual(70);
      for (const { method, path, operation } of operations) {
        for (const mode of modes) {
          await freshTokens();
          await fc.assert(
            fc.asyncProperty(inputArb(operation), async (input) => {
              const answer = await send(method, path, input, mode);
              requests += 1;
              const status = String(answer.statusCode);
              const where = `${method.toUpperCase()} ${path} as ${mode} (${input.valid ? "valid" : "invalid"} ${JSON.stringify(input).slice(0, 160)}) → ${status} ${answer.body.slice(0, 160)}`;
              const documented = operation.responses[status];
              if (answer.statusCode >= 500) problems.push(`5xx: ${where}`);
              else if (!documented) problems.push(`undocumented status: ${where}`);
              else {
                const type = String(answer.headers["content-type"] ?? "").split(";")[0]!;
                const content = documented.content?.[type];
                if (!content) problems.push(`undocumented content type ${type}: ${where}`);
                else if (type === "application/json" && !validator(content.schema)(answer.json()))
                  problems.push(`body outside its schema: ${where}`);
              }
              const accepted = answer.statusCode >= 200 && answer.statusCode < 300;
              if (accepted && !admits(operation["x-access"], mode)) problems.push(`accepted from a caller it does not admit: ${where}`);
              if (accepted && !input.valid) problems.push(`accepted what the document calls invalid: ${where}`);
            }),
            { numRuns: RUNS, seed: SEED, endOnFailure: true },
          );
        }
      }
      const seconds = (performance.now() - started) / 1000;
      console.info(
        `openapi fuzz: ${operations.length} operations × ${modes.length} modes × ${RUNS} runs = ${requests} requests in ${seconds.toFixed(1)} s`,
      );
      expect(problems).toEqual([]);
      // A request takes milliseconds; the bound is for a shared, loaded machine.
    },
    120_000 + RUNS * 231 * 500,
  );
});
