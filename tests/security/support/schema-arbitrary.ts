import fc from "fast-check";

// fast-check arbitraries from the JSON Schemas of the portal's OpenAPI document (the subset z.toJSONSchema writes:
// type, enum, const, anyOf/oneOf, pattern, min/max length and value, items, properties, required, $ref), so the
// document itself drives the fuzz (openapi-fuzz.test.ts): inputs it calls valid, and inputs it calls invalid.

export type Schema = Record<string, unknown>;

/** Ids of the demo data stay out of reach: the fuzz must not edit, reset or close the accounts it signs in with. */
const FAR_ID = 1_000_000;
const isIdName = (name: string | undefined) => !!name && /(^|_)id$|Id$/.test(name);

const num = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);

function resolve(schema: Schema, root: Schema): Schema {
  const ref = schema.$ref;
  if (typeof ref !== "string" || !ref.startsWith("#/")) return schema;
  return ref
    .slice(2)
    .split("/")
    .reduce<Schema>((node, key) => node[key] as Schema, root);
}

function stringArb(schema: Schema): fc.Arbitrary<string> {
  const minLength = num(schema.minLength) ?? 0;
  const maxLength = Math.min(num(schema.maxLength) ?? 40, 200);
  const fits = (text: string) => text.length >= minLength && text.length <= (num(schema.maxLength) ?? Infinity);
  if (typeof schema.pattern === "string") {
    // "^[class]+$" with length bounds becomes "^[class]{min,max}$": filtering for the length would rarely succeed.
    const quantified = /^\^(\[[^\]]+\]|\\[wd])[+*]\$$/.exec(schema.pattern);
    const source = quantified ? `^${quantified[1]}{${Math.max(minLength, 1)},${num(schema.maxLength) ?? 64}}$` : schema.pattern;
    return fc.stringMatching(new RegExp(source)).filter(fits);
  }
  if (schema.format === "email") return fc.emailAddress().filter(fits);
  if (schema.format === "date")
    return fc
      .date({ min: new Date("2000-01-01"), max: new Date("2030-12-31"), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  if (schema.format === "date-time")
    return fc.date({ min: new Date("2000-01-01"), max: new Date("2030-12-31"), noInvalidDate: true }).map((d) => d.toISOString());
  return fc.string({ minLength, maxLength: Math.max(minLength, maxLength) });
}

function integerArb(schema: Schema, name?: string): fc.Arbitrary<number> {
  const exclusiveMin = num(schema.exclusiveMinimum);
  const exclusiveMax = num(schema.exclusiveMaximum);
  let min = num(schema.minimum) ?? (exclusiveMin !== undefined ? Math.floor(exclusiveMin) + 1 : -1_000_000);
  const max = num(schema.maximum) ?? (exclusiveMax !== undefined ? Math.ceil(exclusiveMax) - 1 : 1_000_000_000);
  if (isIdName(name) && max > FAR_ID) min = Math.max(min, FAR_ID);
  return fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) });
}

/** Values the schema calls valid. `name` is the property's name (ids are kept away from the demo rows). */
export function validArb(schema: Schema, root: Schema, name?: string): fc.Arbitrary<unknown> {
  const node = resolve(schema, root);
  if ("const" in node) return fc.constant(node.const);
  if (Array.isArray(node.enum)) return fc.constantFrom(...(node.enum as unknown[]));
  const options = (node.anyOf ?? node.oneOf) as Schema[] | undefined;
  if (options) return fc.oneof(...options.map((option) => validArb(option, root, name)));
  const type = Array.isArray(node.type) ? fc.constantFrom(...(node.type as string[])) : null;
  if (type) return type.chain((one) => validArb({ ...node, type: one }, root, name));
  switch (node.type) {
    case "string":
      return stringArb(node);
    case "integer":
      return integerArb(node, name);
    case "number":
      return isIdName(name)
        ? integerArb(node, name)
        : fc.double({ min: num(node.minimum) ?? -1e9, max: num(node.maximum) ?? 1e9, noNaN: true });
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const items = (node.items as Schema | undefined) ?? {};
      const minLength = num(node.minItems) ?? 0;
      return fc.array(validArb(items, root, name), { minLength, maxLength: Math.max(minLength, Math.min(num(node.maxItems) ?? 4, 4)) });
    }
    case "object": {
      const properties = (node.properties as Record<string, Schema> | undefined) ?? {};
      const required = (node.required as string[] | undefined) ?? [];
      const model = Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, validArb(value, root, key)]));
      return fc.record(model, { requiredKeys: required.filter((key) => key in properties) });
    }
    default:
      // Any value (accepted and ignored, as its description says).
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/** A value of another JSON type than the schema's, or one past its bounds. */
function wrongValue(schema: Schema, root: Schema): fc.Arbitrary<unknown> {
  const node = resolve(schema, root);
  const others: Array<fc.Arbitrary<unknown>> = [fc.constant(null), fc.constant({ $gt: "" }), fc.constant([1, 2])];
  if (node.type !== "string") others.push(fc.string({ maxLength: 12 }));
  if (node.type !== "integer" && node.type !== "number") others.push(fc.integer());
  if (node.type !== "boolean") others.push(fc.boolean());
  if (node.type === "integer" || node.type === "number") {
    others.push(fc.constant(1.5), fc.constant(-1), fc.constant(1e20));
    if (num(node.maximum) !== undefined) others.push(fc.constant(num(node.maximum)! + 1));
  }
  if (node.type === "string") {
    if (num(node.maxLength) !== undefined) others.push(fc.constant("9".repeat(num(node.maxLength)! + 1)));
    if (typeof node.pattern === "string" || Array.isArray(node.enum)) others.push(fc.constant("no-es-valido %"));
  }
  return fc.oneof(...others);
}

/** Values the schema calls invalid: a wrong type or out-of-bounds value at the top or in one field, or a required field missing. */
export function invalidArb(schema: Schema, root: Schema): fc.Arbitrary<unknown> {
  const node = resolve(schema, root);
  const properties = (node.properties as Record<string, Schema> | undefined) ?? {};
  const keys = Object.keys(properties);
  if (node.type !== "object" || keys.length === 0) return wrongValue(node, root);
  const required = (node.required as string[] | undefined) ?? [];
  const choices: Array<fc.Arbitrary<unknown>> = [
    validArb(node, root).chain((valid) =>
      fc.constantFrom(...keys).chain((key) => wrongValue(properties[key]!, root).map((bad) => ({ ...(valid as object), [key]: bad }))),
    ),
    wrongValue(node, root),
  ];
  if (required.length > 0) {
    choices.push(
      validArb(node, root).chain((valid) =>
        fc.constantFrom(...required).map((key) => {
          const copy = { ...(valid as Record<string, unknown>) };
          delete copy[key];
          return copy;
        }),
      ),
    );
  }
  return fc.oneof(...choices);
}
