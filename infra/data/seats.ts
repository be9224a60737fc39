/**
 * `npm run data -- seats`: appointments booked before seats existed (issue #28) take their seats. A
 * booking now takes a seat in its own transaction; one made earlier holds none, so availability would
 * offer its chair to someone else. This finds every appointment still scheduled in the future without a
 * seat and gives it one, each in a transaction of its own:
 *
 * - the appointment gains `holds_seat` and `ends_at` (its location's slot length), on the condition that
 *   it is still scheduled at the time and location read and holds no seat yet;
 * - its slot's seat item gains its id, with no capacity condition (a booking that exists keeps its chair,
 *   even where a slot now holds more than the capacity: PATCH /locations/{id} names those);
 * - the person's booked_slots gain it, so their later bookings cannot overlap it.
 *
 * Migrated, not derived at read time: no index lists a location's appointments by time, and one pass is
 * cheaper than every availability query asking. A Scan, as an operator's one-off over the whole table,
 * never on a request path. Running it again changes nothing; bookings made meanwhile are unaffected.
 */
import { ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_SLOT_MINUTES } from '../../shared/domain/location-schedule';
import { toUtcInstant } from '../../shared/domain/instant';
import { type AppointmentRecord } from '../../shared/store/appointments/records';
import { dynamo, tableName } from '../../shared/store/client';
import * as keys from '../../shared/store/keys/items';
import { getLocation, type LocationRecord } from '../../shared/store/locations';
import { getProfile, profileBookingsAsRead } from '../../shared/store/profiles';
import { keepSeat, type SeatRef } from '../../shared/store/seats';
import { named, TransactionCancelled, transactWrite } from '../../shared/store/transactions';

export interface SeatMigration {
  /** Appointments that took their seat now. */
  seated: number;
  /** Found without a seat but changed meanwhile (cancelled, moved, confirmed): nothing to do. */
  skipped: number;
}

async function* legacyAppointments(now: Date): AsyncGenerator<AppointmentRecord> {
  let ExclusiveStartKey: ScanCommandInput['ExclusiveStartKey'];
  do {
    const page = await dynamo.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: 'SK = :appt AND #status = :scheduled AND attribute_not_exists(holds_seat) AND scheduled_at > :now',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':appt': 'APPT', ':scheduled': 'scheduled', ':now': toUtcInstant(now) },
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) yield item as unknown as AppointmentRecord;
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
}

async function seat(appointment: AppointmentRecord, location: LocationRecord | undefined): Promise<boolean> {
  const slotMinutes = location?.slot_minutes ?? DEFAULT_SLOT_MINUTES;
  const slot: SeatRef = {
    locationId: appointment.location_id!,
    start: appointment.scheduled_at!,
    end: toUtcInstant(new Date(Date.parse(appointment.scheduled_at!) + slotMinutes * 60_000)),
  };
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const profile = await getProfile(appointment.profile_id);
    if (!profile || profile.erased_at) return false;
    try {
      await transactWrite([
        named('appointment', {
          Update: {
            TableName: tableName,
            Key: keys.appointment(appointment.id),
            UpdateExpression: 'SET holds_seat = :true, ends_at = :end',
            ConditionExpression: '#status = :scheduled AND scheduled_at = :at AND location_id = :location AND attribute_not_exists(holds_seat)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':true': true, ':end': slot.end, ':scheduled': 'scheduled', ':at': slot.start, ':location': slot.locationId },
          },
        }),
        keepSeat(slot, appointment.id),
        profileBookingsAsRead(profile, { ...(profile.booked_slots ?? {}), [appointment.id]: `${slot.start}/${slot.end}` }),
      ]);
      return true;
    } catch (error) {
      if (!(error instanceof TransactionCancelled)) throw error;
      if (error.failed('appointment')) return false;
      // The person booked meanwhile: read their bookings again.
    }
  }
  throw new Error(`appointment ${appointment.id}: the person's bookings kept changing; run the command again`);
}

export async function seatLegacyAppointments(now = new Date()): Promise<SeatMigration> {
  const result: SeatMigration = { seated: 0, skipped: 0 };
  const locations = new Map<string, Promise<LocationRecord | undefined>>();
  for await (const appointment of legacyAppointments(now)) {
    if (!appointment.location_id || !appointment.scheduled_at) continue;
    if (!locations.has(appointment.location_id)) locations.set(appointment.location_id, getLocation(appointment.location_id));
    if (await seat(appointment, await locations.get(appointment.location_id))) result.seated += 1;
    else result.skipped += 1;
  }
  return result;
}
