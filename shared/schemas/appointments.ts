/** The appointment representations (what a client sends is in bodies/appointments.ts). */
import * as v from 'valibot';
import { APPOINTMENT_STATUSES } from '../domain/appointment';
import type { ProfileRecord } from '../store/profiles';
import type { AppointmentAggregate, AppointmentRecord } from '../store/appointments/records';
import type { Catalog } from '../store/catalog';
import { AttachedBiomarker, AttachedPanel, instant, LabOrderSummary, RequisitionSummary, toLabOrderSummary, toRequisitionSummary, uuid } from './fields';
import { orderRequirementEntries, toOrderRequirements } from './order-requirements';
import { CreatedProfile, EmbeddedProfile, toCreatedProfile, toEmbeddedProfile } from './profiles';

const appointmentStatus = v.pipe(
  v.picklist(APPOINTMENT_STATUSES),
  v.description("scheduled (the spec's pending) → blood_drawn (confirmed) → in_transit → completed; or cancelled"),
);
const createdEntries = {
  id: uuid,
  profile_id: uuid,
  location_id: v.pipe(v.nullable(uuid), v.description('null for a home kit appointment')),
  scheduled_at: v.pipe(v.nullable(instant), v.description('UTC instant; null for a home kit appointment')),
  status: appointmentStatus,
  test_method: v.nullable(v.picklist(['practitioner', 'home'])),
  recollection_of: v.pipe(v.nullable(uuid), v.description('the appointment whose rejected specimen this one draws again; null otherwise')),
};
const summaryEntries = {
  ...createdEntries,
  barcode: v.pipe(v.nullable(v.string()), v.description("the sample's barcode once the blood is drawn (clinics look samples up by it); null before")),
  cancellation_reason: v.pipe(v.nullable(v.string()), v.description('null unless cancelled')),
  requisition: RequisitionSummary,
  lab_order: LabOrderSummary,
  created_at: instant,
  updated_at: v.nullable(instant),
};

/** The Create Appointment response: only these fields, the profile without timestamps. */
export const CreatedAppointment = v.object({ ...createdEntries, profile: CreatedProfile });
export type CreatedAppointment = v.InferOutput<typeof CreatedAppointment>;
/** An item of a profile's appointments: the appointment's own fields (its tests, and so what they ask, are read per appointment). */
export const AppointmentSummary = v.object(summaryEntries);
export type AppointmentSummary = v.InferOutput<typeof AppointmentSummary>;
/** Get, Update and Cancel Appointment: every field, the embedded profile with timestamps, what its tests ask. */
export const Appointment = v.object({
  ...summaryEntries,
  profile: EmbeddedProfile,
  panels: v.array(AttachedPanel),
  individual_biomarkers: v.array(AttachedBiomarker),
  ...orderRequirementEntries,
  shipments: v.pipe(
    v.array(v.object({ id: v.pipe(v.string(), v.description('the shipment reference without hyphens')), added_at: instant })),
    v.description('oldest link first'),
  ),
});
export type Appointment = v.InferOutput<typeof Appointment>;

/** The fields of createdEntries: what every representation of an appointment starts with. */
const createdFields = (appointment: AppointmentRecord) => ({
  id: appointment.id,
  profile_id: appointment.profile_id,
  location_id: appointment.location_id,
  scheduled_at: appointment.scheduled_at,
  status: appointment.status,
  test_method: appointment.test_method,
  recollection_of: appointment.recollection_of ?? null,
});

export function toCreatedAppointment(appointment: AppointmentRecord, profile: ProfileRecord): CreatedAppointment {
  return { ...createdFields(appointment), profile: toCreatedProfile(profile) };
}

export function toAppointmentSummary(appointment: AppointmentRecord): AppointmentSummary {
  return {
    ...createdFields(appointment),
    barcode: appointment.barcode,
    cancellation_reason: appointment.cancellation_reason,
    requisition: toRequisitionSummary(appointment.requisition),
    lab_order: toLabOrderSummary(appointment.lab_order),
    created_at: appointment.created_at,
    updated_at: appointment.updated_at,
  };
}

/** `catalog`: loadCatalog()'s, to resolve the tests' preparation and specimens. */
export function toAppointment(aggregate: AppointmentAggregate, profile: ProfileRecord, catalog: Catalog): Appointment {
  return {
    ...toAppointmentSummary(aggregate.appointment),
    profile: toEmbeddedProfile(profile),
    panels: aggregate.panels.map(({ panel_id, added_at }) => ({ panel_id, added_at })),
    individual_biomarkers: aggregate.biomarkers.map(({ biomarker_id, added_at }) => ({ biomarker_id, added_at })),
    ...toOrderRequirements(
      { panelIds: aggregate.panels.map((link) => link.panel_id), biomarkerIds: aggregate.biomarkers.map((link) => link.biomarker_id) },
      catalog,
      profile.language,
      aggregate.appointment.requisition?.tests,
    ),
    shipments: aggregate.shipments.map(({ id, added_at }) => ({ id, added_at })),
  };
}
