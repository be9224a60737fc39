/** An appointment's lab order as a FHIR R4 Bundle (GET /appointments/{id}/order/fhir): after the draw, with its patient. */
import { assertProfileResourceAccess } from '../auth/access';
import { isFinal } from '../domain/results';
import { NO_REQUISITION } from '../domain/requisition';
import { Conflict } from '../errors';
import { orderBundle } from '../fhir/order-bundle';
import { getAppointmentAggregateOrThrow } from '../store/appointments/reads';
import { getExistingProfile } from '../store/profiles';
import type { Caller } from './request';

export async function orderFhir(id: string, { access, now }: Caller): Promise<Record<string, unknown>> {
  const { appointment, clinicalResults, geneticResults, rejectedTests } = await getAppointmentAggregateOrThrow(id);
  assertProfileResourceAccess(access, appointment, 'appointment');
  const { requisition, barcode, blood_drawn_at: collectedAt } = appointment;
  if (!requisition || !barcode || !collectedAt) throw new Conflict(NO_REQUISITION);
  access.audit?.read(appointment.profile_id, `appointment ${id} order FHIR`);
  // A test is answered for good by a final (or corrected) value, or by the lab's "not performed".
  const answered = new Set([...[...clinicalResults, ...geneticResults].filter(isFinal), ...rejectedTests].map((test) => test.biomarker_id));
  const profile = await getExistingProfile(appointment.profile_id);
  return orderBundle({ appointmentId: id, barcode, collectedAt, requisition, answered, profile, now });
}
