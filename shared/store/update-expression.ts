/**
 * Builds an UpdateExpression from a typed patch. Attribute names and values always travel as
 * placeholders (#f0, :v0): nothing a client sends is ever concatenated into the expression.
 */
export interface UpdateParts {
  UpdateExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
}

export function setAttributes(patch: Record<string, unknown>): UpdateParts {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const assignments = Object.entries(patch)
    .filter(([, value]) => value !== undefined)
    .map(([name, value], i) => {
      names[`#f${i}`] = name;
      values[`:v${i}`] = value;
      return `#f${i} = :v${i}`;
    });
  if (assignments.length === 0) throw new Error('setAttributes needs at least one attribute');
  return {
    UpdateExpression: `SET ${assignments.join(', ')}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}
