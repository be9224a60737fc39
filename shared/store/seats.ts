/**
 * The seats of a location's slots (issue #28): one item per slot that holds at least one booking,
 * `SEATS#<location id>` / `<slot start, UTC>`, with the set of appointment ids holding a seat in it. A slot
 * nobody booked has no item, so an availability query reads only the booked slots of its range.
 *
 * A booking takes its seat in the same transaction that writes the appointment: the set gains its id on the
 * condition that it holds fewer ids than the location's capacity (as read, with the location's schedule
 * version checked in the same transaction). Cancelling removes the id; a reschedule removes it from one item
 * and adds it to another, atomically. Adding or removing the same id twice changes nothing, so a retried
 * write cannot count a booking twice.
 *
 * Access patterns:
 * - take / release a seat ............ Update (in the booking's transaction)   PK=SEATS#<location>, SK=<start>
 * - seats taken in a range ........... Query  PK=SEATS#<location>, SK BETWEEN <first start> AND <last start>
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo, tableName } from './client';
import * as keys from './keys/items';
import { TTL_ATTRIBUTE } from './table';
import { type NamedItem, named } from './transactions';

/** A slot's item outlives the slot by this much (DynamoDB TTL), so past slots do not accumulate. */
const KEPT_AFTER_SLOT_DAYS = 30;

const expiresAt = (slotEnd: string) => Math.floor(Date.parse(slotEnd) / 1000) + KEPT_AFTER_SLOT_DAYS * 86_400;

export interface SeatRef {
  locationId: string;
  /** The slot's start and end, UTC instants without milliseconds (the appointment's scheduled_at and ends_at). */
  start: string;
  end: string;
}

/** Takes a seat for the appointment, on the condition that the slot holds fewer than `capacity` bookings. */
export const takeSeat = (seat: SeatRef, appointmentId: string, capacity: number): NamedItem =>
  named('seat', {
    Update: {
      TableName: tableName,
      Key: keys.seats(seat.locationId, seat.start),
      UpdateExpression: 'ADD appointment_ids :ids SET #expires = :expires',
      ConditionExpression: 'attribute_not_exists(appointment_ids) OR size(appointment_ids) < :capacity',
      ExpressionAttributeNames: { '#expires': TTL_ATTRIBUTE },
      ExpressionAttributeValues: { ':ids': new Set([appointmentId]), ':capacity': capacity, ':expires': expiresAt(seat.end) },
    },
  });

/** Adds or removes the appointment's id in the slot's set; its item expires KEPT_AFTER_SLOT_DAYS after the slot. */
const seatUpdate = (name: string, action: 'ADD' | 'DELETE', seat: SeatRef, appointmentId: string): NamedItem =>
  named(name, {
    Update: {
      TableName: tableName,
      Key: keys.seats(seat.locationId, seat.start),
      UpdateExpression: `${action} appointment_ids :ids SET #expires = if_not_exists(#expires, :expires)`,
      ExpressionAttributeNames: { '#expires': TTL_ATTRIBUTE },
      ExpressionAttributeValues: { ':ids': new Set([appointmentId]), ':expires': expiresAt(seat.end) },
    },
  });

/** Frees the appointment's seat (no condition: a freed seat is free, whatever else happened to the slot). */
export const releaseSeat = (seat: SeatRef, appointmentId: string): NamedItem => seatUpdate('released seat', 'DELETE', seat, appointmentId);

/**
 * Gives a booking that exists its seat whatever the capacity (`npm run data -- seats`, for appointments
 * booked before seats existed): a booked person keeps their chair.
 */
export const keepSeat = (seat: SeatRef, appointmentId: string): NamedItem => seatUpdate('seat', 'ADD', seat, appointmentId);

export interface BookedSlot {
  /** The slot's start, a UTC instant. */
  start: string;
  appointmentIds: string[];
}

/**
 * The booked slots of a location whose start is in [from, to] (UTC instants), in order: every page,
 * consistently (a seat taken a moment ago counts). Only booked slots have items, so this reads what is booked.
 */
export async function bookedSlots(locationId: string, from: string, to: string): Promise<BookedSlot[]> {
  const booked: BookedSlot[] = [];
  const { PK } = keys.seats(locationId, from);
  let ExclusiveStartKey: QueryCommandInput['ExclusiveStartKey'];
  do {
    const page = await dynamo.send(
      new QueryCommand({
        TableName: tableName,
        KeyConditionExpression: 'PK = :pk AND SK BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': PK, ':from': from, ':to': to },
        ProjectionExpression: 'SK, appointment_ids',
        ConsistentRead: true,
        ExclusiveStartKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const ids = item.appointment_ids as Set<string> | undefined;
      if (ids && ids.size > 0) booked.push({ start: item.SK as string, appointmentIds: [...ids].sort() });
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return booked;
}
