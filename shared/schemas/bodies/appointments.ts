/** What a client sends to create, reschedule, confirm, cancel and pick up appointments, and to attach tests to one (a home kit order's too). */
import * as v from 'valibot';
import { BARCODE_PATTERN } from '../../domain/sample';
import { SHIPMENT_REFERENCE } from '../../domain/shipment';
import { requiredFreeText, uuid, zonedDateTime } from '../fields';

/** 1–max distinct ids; duplicates are counted once. */
const idList = <T extends v.GenericSchema>(item: T, max: number) =>
  v.pipe(
    v.array(item),
    v.description(`1–${max} distinct ids; a duplicate is counted once`),
    v.minLength(1, 'must not be empty'),
    v.transform((ids: v.InferOutput<T>[]) => [...new Set(ids)]),
    v.check((ids) => ids.length <= max, `must list at most ${max} distinct ids`),
  );

export const CreateAppointmentBody = v.strictObject({
  profile_id: uuid,
  location_id: uuid,
  scheduled_at: zonedDateTime,
  recollection_of: v.optional(
    v.pipe(uuid, v.description('an appointment of the same profile whose specimen the lab rejected: its rejected tests are attached to this one')),
  ),
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
  barcode: v.pipe(v.string(), v.regex(BARCODE_PATTERN, 'must be 6–32 characters of A–Z, 0–9 and -')),
});

export const CancelBody = v.strictObject({ cancellation_reason: requiredFreeText(500) });

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

/** POST /appointments/{id}/patient-link (issue #53): the body may be left out. */
export const PatientLinkBody = v.strictObject({
  revoke_previous: v.optional(
    v.pipe(
      v.boolean(),
      v.description('true: every link issued before this one for the appointment answers 404 from now on. Default false: they keep working.'),
    ),
  ),
});
