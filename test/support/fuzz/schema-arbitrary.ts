/**
 * fast-check arbitraries generated from the request JSON Schemas of docs/openapi.json, which
 * infra/contract/openapi.ts converts from the very valibot schemas that validate the requests. Only the
 * keywords that document uses are read; a field the caller knows better (an id that must exist, a url that
 * must not leave the machine) is drawn from `fields` instead of from its schema.
 */
import fc from 'fast-check';
import document from '../../../docs/openapi.json' with { type: 'json' };

export type JsonSchema = {
  $ref?: string;
  type?: string;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  pattern?: string;
  format?: string;
};

/** Arbitraries by property name, used instead of the schema's (and for the items of an array property). */
export type FieldArbitraries = Record<string, fc.Arbitrary<unknown> | undefined>;

const schemas = (document as unknown as { components: { schemas: Record<string, JsonSchema> } }).components.schemas;

export function resolve(schema: JsonSchema): JsonSchema {
  return schema.$ref ? resolve(schemas[schema.$ref.split('/').pop()!]!) : schema;
}

const DAY = 86_400_000;
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Dates around today: the rules of this API are about the past (birth) and the next months (bookings, pickups). */
export const dateArbitrary = fc.integer({ min: -40_000, max: 400 }).map((days) => isoDate(Date.now() + days * DAY));

/** Instants from a week ago to beyond a year ahead, with Z or an offset, as clients write them. */
export const dateTimeArbitrary = fc
  .tuple(fc.integer({ min: -7 * 24, max: 400 * 24 }), fc.constantFrom('Z', '+02:00', '-05:30', '.123Z'))
  .map(([hours, zone]) => {
    const instant = new Date(Math.floor(Date.now() / 3_600_000 + hours) * 3_600_000).toISOString().slice(0, 19);
    return `${instant}${zone}`;
  });

/** Text a person or a clinic writes: mostly plain words, sometimes any unicode. */
function text(min: number, max: number): fc.Arbitrary<string> {
  const bounded = (s: string) => s.length >= min && s.length <= max;
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('Anna', 'Jürgen', 'Ødegård', 'Zoë', 'Nguyễn', '李', 'Иван', 'Main St', '10115', 'Berlin', 'DHL').filter(bounded) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: Math.max(min, 1), maxLength: Math.min(max, 40) }) },
  );
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  if (schema.format === 'uuid') return fc.uuid({ version: 4 });
  if (schema.format === 'date') return dateArbitrary;
  if (schema.format === 'date-time') return dateTimeArbitrary;
  if (schema.format === 'email') return fc.emailAddress().filter((email) => email.length <= (schema.maxLength ?? 254));
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
  return text(schema.minLength ?? 0, schema.maxLength ?? 200);
}

function numberArbitrary(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = schema.minimum ?? (integer ? 0 : -1e6);
  const max = schema.maximum ?? (integer ? min + 1000 : 1e6);
  return integer ? fc.integer({ min, max }) : fc.oneof(fc.integer({ min: Math.ceil(min), max: Math.floor(max) }), fc.double({ min, max, noNaN: true }));
}

/** An arbitrary of the values the schema accepts (as far as its keywords say: rules described in words are not known here). */
export function fromSchema(input: JsonSchema, fields: FieldArbitraries = {}): fc.Arbitrary<unknown> {
  const schema = resolve(input);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => fromSchema(alternative, fields)));
  if (schema.enum) return fc.constantFrom(...schema.enum);
  switch (schema.type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const shape: Record<string, fc.Arbitrary<unknown>> = {};
      for (const [name, property] of Object.entries(properties)) {
        const resolved = resolve(property);
        const field = fields[name];
        if (field && resolved.type === 'array') {
          shape[name] = fc.array(field, { minLength: resolved.minItems ?? 0, maxLength: Math.min(resolved.maxItems ?? 4, 4) });
        } else {
          shape[name] = field ?? fromSchema(property, fields);
        }
      }
      return fc.record(shape, { requiredKeys: (schema.required ?? []).filter((name) => name in shape) });
    }
    case 'array':
      return fc.array(schema.items ? fromSchema(schema.items, fields) : fc.jsonValue(), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 4, 4),
      });
    case 'string':
      return stringArbitrary(schema);
    case 'integer':
      return numberArbitrary(schema, true);
    case 'number':
      return numberArbitrary(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}
