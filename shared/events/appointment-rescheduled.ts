/**
 * AppointmentRescheduled (issue #52): a scheduled appointment moved to another slot, at its location or
 * another one (PATCH /appointments/{id}). Written into the outbox in the same transaction as the move
 * (shared/store/appointments/writes.ts changeSchedule), so a subscriber sees every move that was made and
 * none that was refused. A PATCH that leaves the slot and the location as they were publishes nothing.
 *
 * Ids, instants and slugs only: who moved it is the API key's id, as the status history names the actor.
 * The schema lives in ./appointment-rescheduled-detail.ts, so the PATCH function bundles this builder and
 * not the schema (issue #33).
 */
import { randomUUID } from 'node:crypto';
import type { Actor } from '../domain/lifecycle';
import type { EventAppointment } from './appointment-event';
import type { AppointmentRescheduledDetail } from './appointment-rescheduled-detail';
import type { DomainEvent } from './publisher';

export const APPOINTMENT_RESCHEDULED = 'AppointmentRescheduled';

/** Where and when an appointment is booked: the start of its slot (UTC) and its location. */
export interface Slot {
  scheduled_at: string;
  location_id: string;
}

/** Whether `to` is another slot than `from`: another location, or another instant however it is written. */
export const isMove = (from: Slot, to: Slot): boolean => from.location_id !== to.location_id || Date.parse(from.scheduled_at) !== Date.parse(to.scheduled_at);

export function appointmentRescheduled(move: {
  appointment: EventAppointment;
  /** The group of the location it moves to. */
  locationGroupSlug: string;
  from: Slot;
  to: Slot;
  actor: Actor;
  at: string;
}): DomainEvent {
  const detail: AppointmentRescheduledDetail = {
    event_id: randomUUID(),
    occurred_at: move.at,
    appointment_id: move.appointment.id,
    profile_id: move.appointment.profile_id,
    profile_group_slug: move.appointment.profile_group_slug,
    location_group_slug: move.locationGroupSlug,
    from: { scheduled_at: move.from.scheduled_at, location_id: move.from.location_id },
    to: { scheduled_at: move.to.scheduled_at, location_id: move.to.location_id },
    source: move.actor.source,
    actor: move.actor.key_id,
  };
  return { event_id: detail.event_id, detail_type: APPOINTMENT_RESCHEDULED, occurred_at: move.at, detail };
}
