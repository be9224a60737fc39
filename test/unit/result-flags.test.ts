/** H/L flags against a range, and the scale of a report's range bar. */
import { describe, expect, it } from 'vitest';
import { rangeFlag } from '../../shared/domain/results';
import { barScale } from '../../shared/report/results-report';

describe('rangeFlag', () => {
  const range = { normal_min: 0.4, normal_max: 4 };

  it('flags a value above the normal range H and one below it L', () => {
    expect(rangeFlag(5.2, range)).toBe('H');
    expect(rangeFlag(0.1, range)).toBe('L');
  });

  it('flags a value on a bound N', () => {
    expect(rangeFlag(4, range)).toBe('N');
    expect(rangeFlag(0.4, range)).toBe('N');
  });

  it('compares a one-sided range with its one bound', () => {
    expect(rangeFlag(140, { normal_min: null, normal_max: 130 })).toBe('H');
    expect(rangeFlag(35, { normal_min: 40, normal_max: null })).toBe('L');
  });

  it('gives no flag without a bound to compare with', () => {
    expect(rangeFlag(1, null)).toBeUndefined();
    expect(rangeFlag(1, { normal_min: null, normal_max: null })).toBeUndefined();
  });
});

describe('barScale', () => {
  it('spans the normal range with a margin on each side', () => {
    const scale = barScale({ min: 10, max: 20 }, null);
    expect(scale?.low).toBeLessThan(10);
    expect(scale?.high).toBeGreaterThan(20);
  });

  it('draws no bar for bounds too large to scale', () => {
    expect(barScale({ min: -1.7e308, max: 1.7e308 }, null)).toBeNull();
  });
});
