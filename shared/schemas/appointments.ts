/** Appointment requests and representations (SPEC "Appointment", "Appointments"). */
import * as v from 'valibot';
import { isZonedDateTime, toUtcInstant } from '../domain/instant';
import { SHIPMENT_REFERENCE } from '../domain/shipment';
import type { ProfileRecord } from '../store/profiles';
import type { AppointmentAggregate, AppointmentRecord } from '../store/appointments';
import { text, uuid } from './fields';
import { toCreatedProfile, toEmbeddedProfile } from './profiles';

/** ISO 8601 with Z or an offset; normalised to the UTC instant the API stores and answers. */
const zonedDateTime = v.pipe(
  v.string(),
  v.check(isZonedDateTime, 'must be an ISO 8601 date-time with a timezone (Z or an offset such as +02:00)'),
  v.transform((value) => toUtcInstant(value)),
);

/** 1–max distinct ids; duplicates are counted once. */
const idList = <T extends v.GenericSchema>(item: T, max: number) =>
  v.pipe(
    v.array(item),
    v.minLength(1, 'must not be empty'),
    v.transform((ids: v.InferOutput<T>[]) => [...new Set(ids)]),
    v.check((ids) => ids.length <= max, `must list at most ${max} distinct ids`),
  );

export const CreateAppointmentBody = v.strictObject({
  profile_id: uuid,
  location_id: uuid,
  scheduled_at: zonedDateTime,
});

export const UpdateAppointmentBody = v.pipe(
  v.strictObject({
    scheduled_at: v.optional(zonedDateTime),
    location_id: v.optional(uuid),
  }),
  v.check((patch) => Object.keys(patch).length > 0, 'must change scheduled_at or location_id'),
);

export const AttachPanelsBody = v.strictObject({ panel_ids: idList(uuid, 50) });

export const biomarkerId = v.pipe(v.number(), v.integer('must be an integer'), v.minValue(1, 'must be a positive integer'));
export const AttachBiomarkersBody = v.strictObject({ biomarker_ids: idList(biomarkerId, 50) });

export const ConfirmBody = v.strictObject({
  barcode: v.pipe(v.string(), v.regex(/^[A-Z0-9-]{6,32}$/, 'must be 6–32 characters of A–Z, 0–9 and -')),
});

export const CancelBody = v.strictObject({ cancellation_reason: text(500) });

/**
 * With a shipment, each moved appointment also gets a link item: 1 + 2 × 49 items fill one
 * DynamoDB transaction (100), so a linked batch takes at most 49 appointments.
 */
export const MAX_LINKED_PICKUP = 49;
export const PickupBody = v.pipe(
  v.strictObject({
    appointment_ids: idList(uuid, 100),
    shipment_id: v.optional(v.pipe(v.string(), v.regex(SHIPMENT_REFERENCE, 'must be a shipment reference P-<6 digits>-<4 digits>'))),
  }),
  v.check(
    (body) => !body.shipment_id || body.appointment_ids.length <= MAX_LINKED_PICKUP,
    `must list at most ${MAX_LINKED_PICKUP} distinct appointment_ids when a shipment_id is given`,
  ),
);

/** The Create Appointment response: only these fields, the profile without timestamps. */
export function toCreatedAppointment(appointment: AppointmentRecord, profile: ProfileRecord) {
  const { cancellation_reason: _reason, created_at: _created, updated_at: _updated, ...created } = toAppointmentSummary(appointment);
  return { ...created, profile: toCreatedProfile(profile) };
}

/** The appointment fields every listing shows. */
export function toAppointmentSummary(appointment: AppointmentRecord) {
  return {
    id: appointment.id,
    profile_id: appointment.profile_id,
    location_id: appointment.location_id,
    scheduled_at: appointment.scheduled_at,
    status: appointment.status,
    test_method: appointment.test_method,
    cancellation_reason: appointment.cancellation_reason,
    created_at: appointment.created_at,
    updated_at: appointment.updated_at,
  };
}

/** Get, Update and Cancel Appointment: every field, the embedded profile with timestamps. */
export function toAppointment(aggregate: AppointmentAggregate, profile: ProfileRecord) {
  return {
    ...toAppointmentSummary(aggregate.appointment),
    profile: toEmbeddedProfile(profile),
    panels: aggregate.panels.map(({ panel_id, added_at }) => ({ panel_id, added_at })),
    individual_biomarkers: aggregate.biomarkers.map(({ biomarker_id, added_at }) => ({ biomarker_id, added_at })),
    shipments: aggregate.shipments.map(({ id, added_at }) => ({ id, added_at })),
  };
}
