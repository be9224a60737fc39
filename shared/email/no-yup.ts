/**
 * What `ics` (the calendar files of patient email, shared/email/calendar.ts) imports from `yup`: the schema
 * library it checks an event's attributes with before it writes the file. The bundles alias `yup` to this
 * module (infra/bundling.ts LAMBDA_BUNDLE.alias), as the report's do for pdf-lib's unused parsers: 38 KB less
 * for V8 to compile at every cold start of the message sender and the reminder sweep, and the ~60 schemas
 * `ics` builds when it loads (issue #52: without it their bundles are 1.47 times their floor, the target 1.3).
 *
 * What we give `ics` is built from typed, stored facts (instants we parse first, a UID and sequence of ours,
 * names and an address the API checked), and each file is read back by an independent parser in the tests
 * (ical.js, test/integration/patient-messages.test.ts): the check `ics` would make proves nothing more. So
 * every builder answers one schema that accepts anything: `validateSync` (which `ics` calls with `strict`,
 * where yup answers the value unchanged) answers the value as given, and every other method (shape, test,
 * noUnknown, of, matches, required…) answers the same schema. The names are those `ics` calls.
 */
interface AcceptingSchema {
  validateSync<T>(value: T): T;
  readonly [method: string]: (...args: never[]) => unknown;
}

const accepting: AcceptingSchema = new Proxy({} as AcceptingSchema, {
  get: (_target, key) => (key === 'validateSync' ? <T>(value: T): T => value : () => accepting),
});
const schema = (): AcceptingSchema => accepting;

export const object = schema;
export const string = schema;
export const number = schema;
export const boolean = schema;
export const array = schema;
export const mixed = schema;
export const lazy = schema;
