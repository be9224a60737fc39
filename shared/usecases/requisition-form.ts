/**
 * The requisition form of a sample (issue #50, docs/orders.md): GET /appointments/{id}/requisition and GET
 * /home-kit-orders/{id}/requisition. Reads the sample's appointment (a kit's is the one its activation made),
 * checks the key may see it, refuses with 409 a sample that has no requisition (not drawn or activated yet,
 * or taken before requisitions existed), records the read in the access log, and renders the form
 * (shared/report/requisition.ts) from what the draw stored: the tests as ordered, never the catalog as it is now.
 */
import { assertProfileResourceAccess } from '../auth/access';
import type { Requisition } from '../domain/requisition';
import { Conflict, NotFound } from '../errors';
import { renderRequisitionForm } from '../report/requisition';
import { APPOINTMENT_NOT_FOUND, type AppointmentRecord } from '../store/appointments/records';
import { getAppointment } from '../store/appointments/reads';
import { getHomeKitOrderOrThrow } from '../store/home-kit-orders';
import { getLocation, type LocationRecord } from '../store/locations';
import { getExistingProfile, getProfileGroup } from '../store/profiles';
import type { Caller } from './request';

/** As the results report names the service (shared/usecases/results-report.ts). */
const SERVICE_NAME = 'Lab Testing Service';

export const NOT_DRAWN_YET = 'The appointment has no requisition yet: it is made when the blood draw is confirmed';
export const CANCELLED_BEFORE_DRAW = 'The appointment was cancelled before its blood draw: it has no requisition';
export const NOT_ACTIVATED_YET = 'The home kit order has no requisition yet: it is made when the kit is activated';
export const CANCELLED_BEFORE_ACTIVATION = 'The home kit order was cancelled before its activation: it has no requisition';
export const TAKEN_BEFORE_REQUISITIONS = 'This sample was taken before requisitions existed: it has no requisition number and no form';

export interface RequisitionForm {
  pdf: Uint8Array;
  /** `requisition-RQ-….pdf`: the number only, no personal data. */
  fileName: string;
}

export async function appointmentRequisitionForm(id: string, { access }: Pick<Caller, 'access'>): Promise<RequisitionForm> {
  const appointment = await getAppointment(id);
  if (!appointment) throw new NotFound(APPOINTMENT_NOT_FOUND);
  assertProfileResourceAccess(access, appointment, 'appointment');
  if (!appointment.blood_drawn_at) throw new Conflict(appointment.status === 'cancelled' ? CANCELLED_BEFORE_DRAW : NOT_DRAWN_YET);
  const requisition = requisitionOf(appointment);
  access.audit?.read(appointment.profile_id, `appointment ${id} requisition`);
  return render(appointment, requisition, appointment.location_id ? getLocation(appointment.location_id) : undefined);
}

export async function homeKitRequisitionForm(id: string, { access }: Pick<Caller, 'access'>): Promise<RequisitionForm> {
  const order = await getHomeKitOrderOrThrow(id);
  assertProfileResourceAccess(access, order, 'home kit order');
  if (!order.appointment_id) throw new Conflict(order.status === 'cancelled' ? CANCELLED_BEFORE_ACTIVATION : NOT_ACTIVATED_YET);
  // The sample its activation made: an appointment with no location.
  const appointment = await getAppointment(order.appointment_id);
  if (!appointment) throw new Error("The activated kit's appointment is missing");
  const requisition = requisitionOf(appointment);
  access.audit?.read(order.profile_id, `home kit order ${id} requisition`);
  return render(appointment, requisition, undefined);
}

/** A drawn sample's requisition; a sample drawn before issue #50 has none, and never will. */
function requisitionOf(appointment: AppointmentRecord): Requisition {
  if (!appointment.requisition) throw new Conflict(TAKEN_BEFORE_REQUISITIONS);
  return appointment.requisition;
}

/** The form of a sample taken at `location` (read beside the profile and its group), or at home when there is none. */
async function render(
  appointment: AppointmentRecord,
  requisition: Requisition,
  locationRead: Promise<LocationRecord | undefined> | undefined,
): Promise<RequisitionForm> {
  const [profile, group, location] = await Promise.all([
    getExistingProfile(appointment.profile_id),
    getProfileGroup(appointment.profile_group_slug),
    locationRead,
  ]);
  const pdf = await renderRequisitionForm({
    serviceName: SERVICE_NAME,
    requisition: { number: requisition.number, createdAt: requisition.created_at },
    barcode: appointment.barcode ?? '',
    patient: {
      name: [profile.first_name, profile.last_name].filter(Boolean).join(' ') || null,
      birthDate: profile.date_of_birth,
      sex: profile.sex,
      erased: profile.erased_at !== undefined,
    },
    collection: {
      at: appointment.blood_drawn_at,
      timeZone: location?.timezone ?? null,
      place: location ? { name: location.name, address: addressLines(location) } : null,
    },
    orderedBy: { name: group?.name ?? appointment.profile_group_slug, account: appointment.profile_group_slug },
    tests: requisition.tests,
  });
  return { pdf, fileName: `requisition-${requisition.number}.pdf` };
}

const addressLines = (location: LocationRecord): string[] =>
  [location.address_line_1, location.address_line_2, [location.postal_code, location.city].filter(Boolean).join(' '), location.country_name].filter(
    (line): line is string => Boolean(line),
  );
