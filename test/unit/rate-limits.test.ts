/** Per-key limits (shared/domain/rate-limits.ts): a token bucket with a burst, a UTC-day quota, the 429's headers. */
import { describe, expect, it } from 'vitest';
import { type KeyLimits, RateLimiter } from '../../shared/domain/rate-limits';

const NOON = Date.parse('2026-11-25T12:00:00Z');
const limits: KeyLimits = { rate_limit: 2, burst: 4, daily_quota: null };
const takeMany = (limiter: RateLimiter, n: number, at = NOON, keyLimits = limits, key = 'key_a') =>
  Array.from({ length: n }, () => limiter.take(key, keyLimits, at).admitted);

describe('RateLimiter', () => {
  it('admits a burst of `burst` requests at once, then refuses', () => {
    expect(takeMany(new RateLimiter(), 5)).toEqual([true, true, true, true, false]);
  });

  it('refills at the rate: half a second later, one more request at 2 per second', () => {
    const limiter = new RateLimiter();
    takeMany(limiter, 4);
    expect([limiter.take('key_a', limits, NOON + 500).admitted, limiter.take('key_a', limits, NOON + 500).admitted]).toEqual([true, false]);
  });

  it('counts each key on its own', () => {
    const limiter = new RateLimiter();
    takeMany(limiter, 4);
    expect(takeMany(limiter, 4, NOON, limits, 'key_b')).toEqual([true, true, true, true]);
  });

  it('answers an empty bucket with Retry-After and the RateLimit fields of draft-ietf-httpapi-ratelimit-headers', () => {
    const limiter = new RateLimiter();
    takeMany(limiter, 4);
    expect(limiter.take('key_a', limits, NOON)).toEqual({
      admitted: false,
      retryAfterSeconds: 1,
      message: 'Too many requests for this API key: at most 2 per second (burst 4); retry after 1 s',
      headers: { 'Retry-After': '1', 'RateLimit-Policy': '"burst";q=4;w=2', RateLimit: '"burst";r=0;t=2' },
    });
  });

  it('refuses past the daily quota until 00:00 UTC, saying so, then admits again', () => {
    const limiter = new RateLimiter();
    const quota = { rate_limit: 100, burst: 100, daily_quota: 3 };
    expect(takeMany(limiter, 4, NOON, quota)).toEqual([true, true, true, false]);
    const refused = limiter.take('key_a', quota, NOON);
    expect(refused).toMatchObject({
      admitted: false,
      retryAfterSeconds: 12 * 3600,
      message: 'This API key used its daily quota of 3 requests; it renews at 00:00 UTC, in 43200 s',
      headers: {
        'Retry-After': '43200',
        'RateLimit-Policy': '"burst";q=100;w=1, "daily";q=3;w=86400',
        RateLimit: expect.stringContaining('"daily";r=0;t=43200'),
      },
    });
    expect(limiter.take('key_a', quota, Date.parse('2026-11-26T00:00:00Z')).admitted).toBe(true);
  });
});

describe('RateLimiter with requests counted out of order', () => {
  it('never lets an earlier clock reading take tokens back: what is left is never negative', () => {
    const limiter = new RateLimiter();
    takeMany(limiter, 4, NOON + 1000);
    const late = limiter.take('key_a', limits, NOON);
    expect(late).toMatchObject({ admitted: false, headers: { RateLimit: '"burst";r=0;t=2' } });
  });
});
