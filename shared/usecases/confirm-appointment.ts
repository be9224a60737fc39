/**
 * Records the blood draw: scheduled → blood_drawn with its barcode and a new requisition (its number
 * claimed), and the lab order (LabOrderRequested) in the same transaction. Confirming again with the same barcode is a safe retry: nothing changes and
 * no second event, also when a racing request with that barcode won.
 */
import { assertProfileResourceAccess } from '../auth/access';
import { decideConfirm } from '../domain/appointment';
import { apiActor } from '../domain/lifecycle';
import { Conflict } from '../errors';
import { getAppointmentAggregateOrThrow } from '../store/appointments/reads';
import { appointmentLifecycle } from '../store/appointments/records';
import { BARCODE_USED, barcodeClaim, CHANGED_MEANWHILE, requisitionClaim, testsAndLocationAsRead } from '../store/appointments/writes';
import { TransactionCancelled } from '../store/transactions';
import { commit } from './commit';
import { labOrderFor } from './lab-order';
import type { Caller } from './request';
import { BUSINESS_METRICS, countBusiness } from '../metrics';

export const NOTHING_TO_TEST = 'The appointment has no panel and no biomarker to test; attach them first (POST /appointments/{id}/panels or /biomarkers)';

export async function confirmAppointment(id: string, barcode: string, { access, now }: Caller): Promise<void> {
  const { appointment, panels, biomarkers } = await getAppointmentAggregateOrThrow(id);
  assertProfileResourceAccess(access, appointment, 'appointment');
  if (decideConfirm(appointment.status, appointment.barcode, barcode) === 'already-confirmed') return;
  // A draw with nothing to test would send the lab an empty order (issue #29), as a kit dispatch refuses.
  if (panels.length === 0 && biomarkers.length === 0) throw new Conflict(NOTHING_TO_TEST);
  const at = now.toISOString();
  const tests = { panelIds: panels.map((link) => link.panel_id), biomarkerIds: biomarkers.map((link) => link.biomarker_id) };
  const { requisition, event } = await labOrderFor(appointment, barcode, tests, at);
  const after = { ...appointment, status: 'blood_drawn' as const, barcode, blood_drawn_at: at, requisition, updated_at: at };
  try {
    await commit({
      transitions: [
        // The lab order below lists the tests and location read here: a racing attach or relocation must not slip past it.
        { lifecycle: appointmentLifecycle, before: appointment, after, actor: apiActor(access.keyId), at, condition: testsAndLocationAsRead(appointment) },
      ],
      items: [barcodeClaim(barcode, { appointment_id: id }, at), requisitionClaim(requisition, id)],
      events: [event],
      writtenAt: at,
    });
    countBusiness(BUSINESS_METRICS.drawsConfirmed);
  } catch (error) {
    if (!(error instanceof TransactionCancelled)) throw error;
    if (error.failed('state')) {
      const { appointment: current } = await getAppointmentAggregateOrThrow(id);
      if (decideConfirm(current.status, current.barcode, barcode) === 'already-confirmed') return;
    }
    if (error.failed('barcode')) throw new Conflict(BARCODE_USED);
    // Else the appointment changed, or (once in 2^60) the requisition number was taken: a retry draws a new one.
    throw new Conflict(CHANGED_MEANWHILE);
  }
}
