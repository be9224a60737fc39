import { describe, expect, it } from 'vitest';
import { assertAcceptsSamples, assertPending, decideProviderUpdate, linkedShipmentId, shipmentReference } from '../../shared/domain/shipment';
import { Conflict } from '../../shared/errors';

describe('shipment references', () => {
  it('spell ten digits in the spec shape P-<6 digits>-<4 digits>, zero-padded', () => {
    expect([shipmentReference(7), shipmentReference(9_999_999_999)]).toEqual(['P-000000-0007', 'P-999999-9999']);
  });

  it('show without hyphens inside an appointment', () => {
    expect(linkedShipmentId('P-261123-0007')).toBe('P2611230007');
  });
});

describe('provider updates', () => {
  it.each([
    ['pending', 'shipped'],
    ['shipped', 'in_transit'],
    ['in_transit', 'delivered'],
    ['pending', 'fault'],
    ['shipped', 'fault'],
    ['in_transit', 'fault'],
  ] as const)('move a %s shipment to %s', (from, to) => {
    expect(decideProviderUpdate(from, to)).toBe('apply');
  });

  it.each([
    ['pending', 'in_transit'],
    ['pending', 'delivered'],
    ['shipped', 'delivered'],
    ['delivered', 'fault'],
    ['cancelled', 'shipped'],
    ['fault', 'in_transit'],
    ['in_transit', 'shipped'],
  ] as const)('refuse to move a %s shipment to %s', (from, to) => {
    expect(() => decideProviderUpdate(from, to)).toThrowError(Conflict);
  });

  it('treat the same status again as a repeated callback that changes nothing', () => {
    expect(decideProviderUpdate('shipped', 'shipped')).toBe('unchanged');
  });
});

describe('changes by the client', () => {
  it.each(['shipped', 'in_transit', 'delivered', 'fault', 'cancelled'] as const)('are refused once %s', (status) => {
    expect(() => assertPending(status, 'modified')).toThrowError(Conflict);
  });

  it.each(['delivered', 'fault', 'cancelled'] as const)('cannot hand samples to a %s shipment', (status) => {
    expect(() => assertAcceptsSamples(status)).toThrowError(Conflict);
  });
});
