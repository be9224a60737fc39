/** What a client sends to book and to change a courier pickup, and what the logistics provider sends about it. */
import * as v from 'valibot';
import { isClockTime } from '../../domain/pickup-window';
import { PROVIDER_STATUSES } from '../../domain/shipment';
import { calendarDate, freeText, uuid, zonedDateTime } from '../fields';

const pickupDate = v.pipe(calendarDate, v.description('a weekday, today or later and at most 90 days ahead (Europe/Berlin); no same-day pickup from 16:00'));
const clockTime = v.pipe(
  v.string(),
  v.metadata({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:MM (24-hour), within 09:00–17:00' }),
  v.check(isClockTime, 'must be a time HH:MM (24-hour)'),
);

export const CreateShipmentBody = v.strictObject({
  location_id: uuid,
  pickup_date: pickupDate,
  pickup_time_from: clockTime,
  pickup_time_till: clockTime,
  notes: v.optional(v.nullable(freeText(1000))),
});

export const UpdateShipmentBody = v.pipe(
  v.strictObject({
    pickup_date: v.optional(pickupDate),
    pickup_time_from: v.optional(clockTime),
    pickup_time_till: v.optional(clockTime),
  }),
  v.check((patch) => Object.keys(patch).length > 0, 'must change pickup_date, pickup_time_from or pickup_time_till'),
);

export const ProviderUpdateBody = v.strictObject({
  status: v.picklist(PROVIDER_STATUSES, `must be one of ${PROVIDER_STATUSES.join(', ')}`),
  tracking_number: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{4,64}$/, 'must be 4–64 letters, digits or hyphens'))),
  occurred_at: v.optional(zonedDateTime),
});
