import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { profileSchema } from "../../server/contract/validation.ts";
import { answerMessage, foreignText } from "./support/answers.ts";
import { restEndpoints, schemaFields, trpcEndpoints, type Endpoint, type Role } from "./support/endpoints.ts";
import { createSecurityContext, type SecurityContext } from "./support/security-context.ts";

// Property-based bad input on every endpoint, with the field names of the zod schemas: wrong types, huge and deeply
// nested values, unicode, NUL, prototype keys and other content types. Never a 5xx, never an English or internal
// message, never a slow answer. Linearity itself is proven by the operation counts of validation-linear.test.ts;
// the bound here is only a generous ceiling that a backtracking rule or a stack overflow would break.

const MAX_ANSWER_MS = 2_000;
const RUNS_PER_ENDPOINT = 6;

let security: SecurityContext;
let endpoints: Endpoint[];
let allFields: string[];
beforeAll(async () => {
  security = await createSecurityContext();
  const trpc = trpcEndpoints();
  allFields = [...new Set([...trpc.flatMap((endpoint) => endpoint.fields), ...schemaFields(profileSchema), "rut", "password"])];
  endpoints = [...restEndpoints(security.ctx.app), ...trpc];
});
afterAll(() => security.ctx.close());

const nested = (depth: number, leaf: string) => "[".repeat(depth) + leaf + "]".repeat(depth);

/** A hostile value as raw JSON text (raw, so prototype keys and deep nesting survive serialisation). */
const hostileJson: fc.Arbitrary<string> = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
  fc.boolean().map(String),
  fc.constant("null"),
  fc.constant("1e400"),
  fc.constant("-0"),
  fc.fullUnicodeString({ maxLength: 40 }).map((text) => JSON.stringify(text)),
  fc.string({ maxLength: 20 }).map((text) => JSON.stringify(`${text}\u0000${text}`)),
  fc.integer({ min: 1_000, max: 14_000 }).map((length) => JSON.stringify("1".repeat(length) + "a")),
  fc.integer({ min: 1_000, max: 7_000 }).map((length) => JSON.stringify("a@" + "a.".repeat(length) + "@")),
  fc.integer({ min: 17, max: 4_000 }).map((depth) => nested(depth, "1")),
  fc.constant('{"__proto__":{"roleType":0,"isAdmin":true}}'),
  fc.constant('{"constructor":{"prototype":{"roleType":0}}}'),
  fc.array(fc.integer(), { maxLength: 30 }).map((items) => JSON.stringify(items)),
  fc.constant(JSON.stringify({ $gt: "" })),
);

/** A body: an object of the schema's fields with hostile values, possibly with prototype keys, or a non-object. */
const hostileBody = (fields: string[]): fc.Arbitrary<string> =>
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc
        .tuple(
          fc.subarray(fields.length ? fields : ["x"], { minLength: 1 }),
          fc.array(hostileJson, { minLength: 8, maxLength: 8 }),
          fc.boolean(),
        )
        .map(([keys, values, prototype]) => {
          const members = keys.map((key, index) => `${JSON.stringify(key)}:${values[index % values.length]}`);
          if (prototype) members.push('"__proto__":{"roleType":0}', '"constructor":{"name":"x"}');
          return `{${members.join(",")}}`;
        }),
    },
    { weight: 1, arbitrary: hostileJson },
  );

const otherContentType = fc.constantFrom(
  undefined,
  undefined,
  undefined,
  "text/plain",
  "application/x-www-form-urlencoded",
  "multipart/form-data; boundary=x",
  "application/xml",
  "application/json; charset=latin1",
);

const role = fc.constantFrom<Role>("none", "patient", "admin");

function queryString(body: string): string {
  try {
    const value = JSON.parse(body) as unknown;
    if (value && typeof value === "object" && !Array.isArray(value)) {
      return Object.entries(value)
        .map(([key, item]) => `${encodeURIComponent(key)}=${encodeURIComponent(typeof item === "string" ? item : JSON.stringify(item))}`)
        .join("&");
    }
  } catch {
    // not JSON: send it as one parameter
  }
  return `q=${encodeURIComponent(body)}`;
}

describe("bad input on every endpoint", () => {
  it("covers every endpoint of the route table and the router", () => {
    expect(endpoints.length).toBeGreaterThanOrEqual(35);
  });

  it("never answers 5xx, English or internal messages, or slowly", async () => {
    const problems: string[] = [];
    for (const endpoint of endpoints) {
      const fields = endpoint.fields.length ? endpoint.fields : allFields;
      await fc.assert(
        fc.asyncProperty(hostileBody(fields), otherContentType, role, async (body, contentType, who) => {
          const started = performance.now();
          const answer =
            endpoint.method === "GET" && endpoint.kind === "rest"
              ? await security.call({ ...endpoint, path: `${endpoint.path}?${queryString(body)}` }, who)
              : await security.call(endpoint, who, { rawBody: body, contentType });
          const elapsed = performance.now() - started;
          const where = `${endpoint.name} as ${who} (${contentType ?? "json"}) ${body.slice(0, 80)} → ${answer.statusCode} ${answer.body.slice(0, 160)}`;
          if (answer.statusCode >= 500) problems.push(`5xx: ${where}`);
          if (answer.statusCode >= 400 && foreignText.test(answerMessage(answer))) problems.push(`foreign message: ${where}`);
          if (elapsed > MAX_ANSWER_MS) problems.push(`${Math.round(elapsed)} ms: ${where}`);
          return true;
        }),
        { numRuns: RUNS_PER_ENDPOINT, seed: Number(process.env.FC_SEED ?? Date.now() % 2 ** 31) },
      );
    }
    expect(problems).toEqual([]);
  });
});
