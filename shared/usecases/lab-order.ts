/**
 * The one builder of a sample's order: its requisition (a new number and the tests as the catalog names
 * them now) and the LabOrderRequested event that carries it, whether the sample was drawn at a location
 * (confirm) or taken at home (kit activation). The caller writes both in its transaction, with the
 * requisition's claim (store/appointments/writes.ts).
 */
import { randomBytes } from 'node:crypto';
import { plannedBiomarkerIds } from '../domain/appointment';
import { type OrderedTest, type Requisition, requisitionNumberOf } from '../domain/requisition';
import { labOrderRequested } from '../events/lab-order-requested';
import type { DomainEvent } from '../events/publisher';
import { Unavailable } from '../errors';
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

/** Told to the caller (503) when the stage's catalog predates the order's fields: `npm run data -- apply` has not run. */
export const CATALOG_NOT_MIGRATED =
  'The test catalog lacks the LOINC code or specimen of a planned test: the lab cannot be sent this order until the reference data is applied; retry shortly';

/**
 * Each planned test as the catalog names it. A requisition is never rewritten, so one written from a catalog that
 * still lacks a test's code or specimen (stored before issue #50, before `npm run data -- apply`) would hold the lab's
 * form and order without them for good: the draw waits instead (503, Retry-After), nothing is written.
 */
function orderedTests(biomarkerIds: number[], catalog: Catalog): OrderedTest[] {
  return biomarkerIds.map((id) => {
    const biomarker = catalog.biomarkers.get(id);
    if (!biomarker?.loinc || !biomarker.specimen) throw new Unavailable(CATALOG_NOT_MIGRATED);
    return { biomarker_id: id, loinc: biomarker.loinc, name: biomarker.name, specimen: biomarker.specimen };
  });
}
