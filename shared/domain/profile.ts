/** Rules on profile fields that need the clock, so they cannot live in a schema. */
import { InvalidInput } from '../errors';
import { isPastDate } from './calendar';

export function assertPastDate(field: string, value: string, now: Date): void {
  if (!isPastDate(value, now)) throw new InvalidInput(`${field} must be a date in the past (YYYY-MM-DD)`);
}
