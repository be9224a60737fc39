/**
 * `new Date(ms).toISOString()` for whole milliseconds (what Date.now() gives), the date and time to the
 * second formatted once a second: Date's formatting cost 5 µs in a warm function, against 1 µs for this
 * (issue #33, timed inside the handler CPU bench). Every log line's timestamp (shared/logger.ts) and the day
 * a key's use is recorded under (shared/auth/api-key-lifetime.ts utcDay) read it. A time that is no number
 * throws RangeError, as Date's own formatting does.
 */
let formattedSecond = Number.NaN;
let secondPrefix = '';

export function isoTimestamp(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second !== formattedSecond) {
    secondPrefix = new Date(second * 1000).toISOString().slice(0, -4); // `2026-11-27T08:15:42.`
    formattedSecond = second;
  }
  return `${secondPrefix}${String(ms - second * 1000).padStart(3, '0')}Z`;
}
