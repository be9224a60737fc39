/** Bookable slot starts for tests, from the seeded locations' schedules (no store, no server: e2e may use it too). */
import { LOCATIONS } from '../../infra/local/seed-data';
import { bookingWindow, overlaps, scheduleOf } from '../../shared/domain/booking';
import { dateInZone } from '../../shared/domain/calendar';
import { toUtcInstant } from '../../shared/domain/instant';
import { slotsOn } from '../../shared/domain/slots';

export const BERLIN_MITTE = '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a01';

const issuedSlots: { start: Date; end: Date }[] = [];

/**
 * The start of a bookable slot at a seeded location on its first open day at least `days` days ahead (in
 * its time zone), different from and not overlapping any slot this helper gave before in the test file:
 * tests booking through it never fill a slot nor overlap one person's bookings unless they mean to. Later
 * days give later or equal dates.
 */
export function slotIn(days: number, locationId: string = BERLIN_MITTE): string {
  const location = LOCATIONS.find((candidate) => candidate.id === locationId);
  const schedule = location && scheduleOf(location);
  if (!schedule) throw new Error(`slotIn: ${locationId} is not a seeded location with opening hours`);
  const { earliest } = bookingWindow(new Date());
  let date = dateInZone(new Date(Date.now() + days * 86_400_000), schedule.timeZone);
  for (let tried = 0; tried < 60; tried += 1) {
    const free = slotsOn(date, schedule).find((slot) => slot.start > earliest && !issuedSlots.some((issued) => overlaps(issued, slot)));
    if (free) {
      issuedSlots.push(free);
      return toUtcInstant(free.start);
    }
    date = nextDate(date);
  }
  throw new Error(`slotIn: no free slot at ${location!.name} from ${days} days ahead`);
}

const nextDate = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
