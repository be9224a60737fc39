import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { InvalidInput } from '../../shared/errors';
import { isJsonObject, parseOrBadRequest } from '../../shared/http/validation';

const Body = v.strictObject({
  name: v.pipe(v.string(), v.minLength(1, 'must not be empty')),
  age: v.optional(v.number()),
  nested: v.optional(v.strictObject({ flag: v.boolean() })),
});

function messageOf(input: unknown): string {
  try {
    parseOrBadRequest(Body, input, 'body');
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidInput);
    return (error as InvalidInput).message;
  }
  throw new Error('expected a InvalidInput');
}

describe('validation messages', () => {
  it('names a missing required field', () => {
    expect(messageOf({})).toBe('name is required');
  });

  it('names an unknown field', () => {
    expect(messageOf({ name: 'x', colour: 'red' })).toBe('colour is not an allowed field');
  });

  it('names an unknown field inside a nested object by its path', () => {
    expect(messageOf({ name: 'x', nested: { flag: true, extra: 1 } })).toBe('nested.extra is not an allowed field');
  });

  it('prefixes a rule message with the field name', () => {
    expect(messageOf({ name: '' })).toBe('name must not be empty');
  });

  it('describes a type mismatch by the expected type', () => {
    expect(messageOf({ name: 'x', age: 'old' })).toBe('age must be a number');
  });

  it('lists several problems in one message', () => {
    expect(messageOf({ age: true, colour: 'red' })).toBe('name is required; age must be a number; colour is not an allowed field');
  });

  it('answers the parsed value when the input is valid', () => {
    expect(parseOrBadRequest(Body, { name: 'x', age: 3 }, 'body')).toEqual({ name: 'x', age: 3 });
  });
});

describe('isJsonObject', () => {
  it.each([[[]], [null], ['text'], [1], [true]])('rejects %j', (value) => {
    expect(isJsonObject(value)).toBe(false);
  });

  it('accepts a plain object', () => {
    expect(isJsonObject({})).toBe(true);
  });
});
