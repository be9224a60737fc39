/**
 * Input parsing at the edge: valibot schemas turn unknown input into typed values, and every issue
 * becomes a message that names the field and the rule ("date_of_birth must be a real date (YYYY-MM-DD)").
 *
 * Schema messages start with "must …" and are prefixed with the field's path here; the messages for
 * plain type mismatches, missing fields and unknown fields are built from the issue itself, so the
 * schemas stay short.
 */
import * as v from 'valibot';
import { InvalidInput } from '../errors';

type AnyIssue = v.BaseIssue<unknown>;

const TYPE_RULES: Record<string, string> = {
  string: 'must be a string',
  number: 'must be a number',
  boolean: 'must be a boolean',
  array: 'must be an array',
  object: 'must be a JSON object',
  strict_object: 'must be a JSON object',
  null: 'must be null',
};

export function describeIssue(issue: AnyIssue, subject: string): string {
  // Issues raised by a schema's own transformation already carry their whole message (see nestedSchema).
  if (issue.kind === 'transformation') return issue.message;
  const path = v.getDotPath(issue) ?? subject;
  if ((issue.type === 'strict_object' || issue.type === 'object') && issue.expected === 'never') {
    return `${path} is not an allowed ${subject === 'query' ? 'query parameter' : 'field'}`;
  }
  if (issue.kind === 'schema' && issue.received === 'undefined' && issue.expected?.startsWith('"')) {
    return `${path} is required`;
  }
  if (issue.message.startsWith('must ')) return `${path} ${issue.message}`;
  return `${path} ${TYPE_RULES[issue.type] ?? 'is invalid'}`;
}

/**
 * Parses `input` or throws 400 naming the problems (at most five, so the message stays readable). A field's
 * checks stop at its first failure (abortPipeEarly): one message per field, and no regular expression
 * runs on a value already known to be too long.
 */
export function parseOrBadRequest<TSchema extends v.GenericSchema>(schema: TSchema, input: unknown, subject: string): v.InferOutput<TSchema> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return result.output;
  const messages = [...new Set(result.issues.map((issue) => describeIssue(issue, subject)))];
  throw new InvalidInput(messages.slice(0, 5).join('; '));
}

export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Parses a nested value with a schema chosen at run time (a delivery address of one of two shapes),
 * reporting its issues under the field's name: "delivery_address.country is required".
 */
export function parseNested<TSchema extends v.GenericSchema>(
  field: string,
  schema: TSchema,
  input: unknown,
  addIssue: (info: { message: string }) => void,
): v.InferOutput<TSchema> | undefined {
  const result = v.safeParse(schema, input);
  if (result.success) return result.output;
  for (const issue of result.issues) addIssue({ message: `${field}.${describeIssue(issue, field)}` });
  return undefined;
}
