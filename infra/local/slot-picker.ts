/**
 * Bookable slot starts at the seeded locations, for whatever books many appointments on a fresh table (the
 * tests, the bench): each slot it gives is new and overlaps none it gave before, so its bookings never fill
 * a slot nor overlap one person's other bookings unless the caller means to.
 */
import { bookingWindow, overlaps, scheduleOf } from '../../shared/domain/booking';
import { addDays, dateInZone } from '../../shared/domain/calendar';
import { toUtcInstant } from '../../shared/domain/instant';
import { slotsOn } from '../../shared/domain/slots';
import { LOCATIONS } from './seed-data';

export const BERLIN_MITTE = '5a1f3c2e-8b4d-4e6f-9a7b-1c2d3e4f5a01';

/**
 * `slotIn(days, location)`: a slot on the location's first open day at least `days` days ahead (in its
 * time zone); a later `days` gives a later or equal date.
 */
export function createSlotPicker(): (days: number, locationId?: string) => string {
  const given: { start: Date; end: Date }[] = [];
  return (days, locationId = BERLIN_MITTE) => {
    const location = LOCATIONS.find((candidate) => candidate.id === locationId);
    const schedule = location && scheduleOf(location);
    if (!schedule) throw new Error(`slotIn: ${locationId} is not a seeded location with opening hours`);
    const { earliest } = bookingWindow(new Date());
    let date = dateInZone(new Date(Date.now() + days * 86_400_000), schedule.timeZone);
    for (let tried = 0; tried < 60; tried += 1) {
      const free = slotsOn(date, schedule).find((slot) => slot.start > earliest && !given.some((taken) => overlaps(taken, slot)));
      if (free) {
        given.push(free);
        return toUtcInstant(free.start);
      }
      date = addDays(date, 1);
    }
    throw new Error(`slotIn: no free slot at ${location!.name} from ${days} days ahead`);
  };
}
