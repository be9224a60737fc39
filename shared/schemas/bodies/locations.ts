/** What a clinic sends to change a location's schedule (PATCH /locations/{id}); the reference data files take the same fields. */
import * as v from 'valibot';
import { calendarDate, text } from '../fields';
import { OpenHours } from '../locations';

/** Each day's ranges open before they close and follow one another without overlapping. */
function rangesInOrder(hours: v.InferOutput<typeof OpenHours>): boolean {
  return Object.values(hours).every((ranges) => ranges.every(({ open, close }, i) => open < close && (i === 0 || ranges[i - 1]!.close <= open)));
}

/**
 * A location's schedule as a clinic sets it (the reference data files and PATCH /locations/{id} alike):
 * every weekday named, ranges in order; slots on a 5-minute grid (every start a readable clock time).
 */
export const scheduleFields = {
  open_hours: v.nullable(v.pipe(v.strictObject(OpenHours.entries), v.check(rangesInOrder, 'each day must list ranges that open before they close, in order'))),
  slot_minutes: v.pipe(
    v.number(),
    v.integer('must be a whole number of minutes'),
    v.minValue(5, 'must be at least 5'),
    v.maxValue(240, 'must be at most 240'),
    v.multipleOf(5, 'must be a multiple of 5'),
  ),
  capacity_per_slot: v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(1, 'must be at least 1'), v.maxValue(100, 'must be at most 100')),
  closures: v.pipe(
    v.array(v.strictObject({ date: calendarDate, reason: v.nullable(text(200)) })),
    v.maxLength(400, 'must list at most 400 dates'),
    v.check((closures) => new Set(closures.map((closure) => closure.date)).size === closures.length, 'must list each date once'),
    // Any order in, date order stored: a clinic adding a holiday appends it and need not sort.
    v.transform((closures) => closures.toSorted((a, b) => (a.date < b.date ? -1 : 1))),
  ),
};

/** PATCH /locations/{id}: any of the schedule's fields; closures replace the list. */
export const UpdateLocationBody = v.pipe(
  v.strictObject({
    open_hours: v.optional(scheduleFields.open_hours),
    slot_minutes: v.optional(scheduleFields.slot_minutes),
    capacity_per_slot: v.optional(scheduleFields.capacity_per_slot),
    closures: v.optional(scheduleFields.closures),
  }),
  v.check((patch) => Object.keys(patch).length > 0, 'must change open_hours, slot_minutes, capacity_per_slot or closures'),
);
export type UpdateLocationBody = v.InferOutput<typeof UpdateLocationBody>;
