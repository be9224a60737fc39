/**
 * The state item of a transition joins three sets of placeholders (the update's, the status check's
 * `#status`/`:from`, and the further condition's): a name used twice must fail loudly, never let one value
 * silently replace another (a condition's `:from` would replace the status check's).
 */
import { describe, expect, it, vi } from 'vitest';

// The store modules read the configuration when imported; nothing here talks to DynamoDB.
vi.hoisted(() => {
  process.env.TABLE_NAME ??= 'unit-test-table';
});

import { shipmentLifecycle, type ShipmentRecord } from '../../shared/store/shipments';
import { type Condition, joinPlaceholders, transitionItems } from '../../shared/store/transitions';

const before = { id: 'P-000000-0001', status: 'pending', location_group_slug: 'berlin', history_seq: 1 } as unknown as ShipmentRecord;
const cancel = (condition: Condition) =>
  transitionItems({
    lifecycle: shipmentLifecycle,
    before,
    after: { ...before, status: 'cancelled' },
    actor: { source: 'api', key_id: 'k' },
    at: 'now',
    condition,
  });

describe('transition placeholders', () => {
  it('joins the condition with the status check when their placeholders differ', () => {
    const update = cancel({ expression: 'pickup_date = :readDate', values: { ':readDate': '2030-01-02' } }).items[0]?.Update;
    expect([update?.ConditionExpression, update?.ExpressionAttributeValues?.[':from'], update?.ExpressionAttributeValues?.[':readDate']]).toEqual([
      '#status = :from AND (pickup_date = :readDate)',
      'pending',
      '2030-01-02',
    ]);
  });

  it('throws when a condition reuses the value placeholder of the status check', () => {
    expect(() => cancel({ expression: 'pickup_date = :from', values: { ':from': '2030-01-02' } })).toThrow('Placeholder :from is used twice in one expression');
  });

  it('throws when a condition reuses a name placeholder of the status check', () => {
    expect(() => cancel({ expression: '#status <> :gone', names: { '#status': 'state' }, values: { ':gone': 'x' } })).toThrow(
      'Placeholder #status is used twice in one expression',
    );
  });

  it('throws when a condition reuses a placeholder of the update itself', () => {
    expect(() => cancel({ expression: 'pickup_date = :v0', values: { ':v0': '2030-01-02' } })).toThrow('Placeholder :v0 is used twice in one expression');
  });

  it('throws even when the two uses give the same value, which a later change could make differ', () => {
    expect(() => joinPlaceholders({ ':zero': 0 }, { ':zero': 0 })).toThrow('Placeholder :zero is used twice in one expression');
  });
});
