/** The lab order's retry schedule and control id (shared/domain/lab-order.ts). */
import { describe, expect, it } from 'vitest';
import { controlIdOf, LAB_ORDER_RETRY, retryDelayMs, scaledSchedule, scheduleSpanMs } from '../../shared/domain/lab-order';
import { REQUISITION_NUMBER_PATTERN } from '../../shared/domain/requisition';

describe('the lab order retry schedule', () => {
  it('waits 30 s after the first attempt without an answer and doubles the wait after each one', () => {
    expect([1, 2, 3, 4, 5].map((attempt) => retryDelayMs(attempt))).toEqual([30_000, 60_000, 120_000, 240_000, 480_000]);
  });

  it('waits at most 15 minutes between attempts', () => {
    expect([6, 7, 19].map((attempt) => retryDelayMs(attempt))).toEqual([900_000, 900_000, 900_000]);
  });

  it('has no wait after the last attempt: the order is failed then', () => {
    expect(LAB_ORDER_RETRY.attempts).toBe(20);
    expect(retryDelayMs(20)).toBeUndefined();
    expect(retryDelayMs(21)).toBeUndefined();
  });

  it('makes its last attempt 3¾ hours after the first', () => {
    expect(scheduleSpanMs()).toBe((30 + 60 + 120 + 240 + 480 + 14 * 900) * 1000);
  });

  it('scales every wait, not the number of attempts, when compressed', () => {
    const fast = scaledSchedule(LAB_ORDER_RETRY, 0.01);
    expect([1, 2, 6].map((attempt) => retryDelayMs(attempt, fast))).toEqual([300, 600, 9000]);
    expect(fast.attempts).toBe(20);
  });
});

describe('controlIdOf', () => {
  it('is the requisition number without hyphens', () => {
    expect(controlIdOf('RQ-7K3M-9XQ2-HT4W')).toBe('RQ7K3M9XQ2HT4W');
  });

  it('fits MSH-10, at most 20 characters, for the longest number REQUISITION_NUMBER_PATTERN allows', () => {
    const source = REQUISITION_NUMBER_PATTERN.source;
    // Only fixed counts ({n}): no *, + or {n,}, so every number it allows is as long as this one.
    expect(source).not.toMatch(/[*+?]|\{\d+,/);
    const longest = source.replace(/^\^|\$$/g, '').replace(/\[[^\]]+\]\{(\d+)\}/g, (_, count: string) => 'Z'.repeat(Number(count)));
    expect(longest).toMatch(REQUISITION_NUMBER_PATTERN);
    expect(controlIdOf(longest).length).toBeLessThanOrEqual(20);
  });
});
