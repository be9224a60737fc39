/**
 * The one builder of a sample's order: its requisition (a new number and the tests as the catalog names
 * them now) and the LabOrderRequested event that carries it, whether the sample was drawn at a location
 * (confirm) or taken at home (kit activation). The caller writes both in its transaction, with the
 * requisition's claim (store/appointments/writes.ts).
 */
import { plannedBiomarkerIds } from '../domain/appointment';
import { randomBytes } from 'node:crypto';
import { type OrderedTest, type Requisition, requisitionNumberOf } from '../domain/requisition';
import { labOrderRequested } from '../events/lab-order-requested';
import type { DomainEvent } from '../events/publisher';
import type { AppointmentRecord } from '../store/appointments/records';
import { type Catalog, loadCatalog } from '../store/catalog';

export interface LabOrder {
  requisition: Requisition;
  event: DomainEvent;
}

export async function labOrderFor(
  appointment: AppointmentRecord,
  barcode: string,
  tests: { panelIds: string[]; biomarkerIds: number[] },
  at: string,
): Promise<LabOrder> {
  // Read afresh (one Query), not the container's cached catalog: a panel changed minutes ago must order what it holds now.
  const catalog = await loadCatalog({ fresh: true });
  const biomarkerIds = plannedBiomarkerIds(
    tests.panelIds.map((id) => catalog.panels.get(id)?.biomarker_ids ?? []),
    tests.biomarkerIds,
  );
  const requisition: Requisition = { number: requisitionNumberOf(randomBytes(12)), created_at: at, tests: orderedTests(biomarkerIds, catalog) };
  const event = labOrderRequested(
    {
      appointment_id: appointment.id,
      profile_id: appointment.profile_id,
      barcode,
      test_method: appointment.test_method ?? 'practitioner',
      location_id: appointment.location_id,
      panel_ids: tests.panelIds,
      biomarker_ids: biomarkerIds,
      requisition_number: requisition.number,
      tests: requisition.tests.map(({ biomarker_id, loinc, specimen }) => ({ biomarker_id, loinc, specimen })),
    },
    at,
  );
  return { requisition, event };
}

/** Each planned test as the catalog names it; the reference data never deletes a test, it withdraws it. */
function orderedTests(biomarkerIds: number[], catalog: Catalog): OrderedTest[] {
  return biomarkerIds.flatMap((id) => {
    const biomarker = catalog.biomarkers.get(id);
    return biomarker ? [{ biomarker_id: id, loinc: biomarker.loinc, name: biomarker.name, specimen: biomarker.specimen }] : [];
  });
}
