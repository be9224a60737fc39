/**
 * The one builder of the LabOrderRequested event: what the lab must test for a sample, whether it was
 * drawn at a location (confirm) or taken at home (kit activation).
 */
import { plannedBiomarkerIds } from '../domain/appointment';
import { labOrderRequested } from '../events/lab-order-requested';
import type { DomainEvent } from '../events/publisher';
import type { AppointmentRecord } from '../store/appointments/records';
import { getPanels } from '../store/catalog';

export async function labOrderFor(
  appointment: AppointmentRecord,
  barcode: string,
  tests: { panelIds: string[]; biomarkerIds: number[] },
  at: string,
): Promise<DomainEvent> {
  // Read, not the container's cached catalog: a panel added minutes ago must order all its biomarkers.
  const panels = await getPanels(tests.panelIds);
  return labOrderRequested(
    {
      appointment_id: appointment.id,
      profile_id: appointment.profile_id,
      barcode,
      test_method: appointment.test_method ?? 'practitioner',
      location_id: appointment.location_id,
      panel_ids: tests.panelIds,
      biomarker_ids: plannedBiomarkerIds(
        panels.map((panel) => panel.biomarker_ids),
        tests.biomarkerIds,
      ),
    },
    at,
  );
}
