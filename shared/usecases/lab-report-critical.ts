/** The critical values of an appointment after a lab report (issue #29): what the report changes of them. */
import { isDeepStrictEqual } from 'node:util';
import { type Interpretation, interpretationOfStored, isCritical } from '../domain/results';
import { type AppointmentRecord } from '../store/appointments/records';
import { type Catalog } from '../store/catalog';
import * as index from '../store/keys/index-entries';
import { type ClinicalResultRecord } from '../store/lab-reports';

type CriticalFields = Pick<
  AppointmentRecord,
  'critical_biomarker_ids' | 'critical_reported_at' | 'critical_acknowledged_at' | 'critical_acknowledged_by' | 'critical_waiting_since'
> &
  Partial<ReturnType<typeof index.unacknowledgedCritical>>;

/**
 * The appointment's critical fields after the report, or undefined when they do not change. The tests
 * critical now are those whose current value is (the report's where it wrote one, else the stored one);
 * a report that brought a critical value resets the acknowledgement, one that only cleared one (a
 * correction) updates the list and keeps it. A new critical value also lists the appointment on GSI2 for
 * the critical results check (functions/events/critical-results-check.ts), waiting since the oldest
 * critical value nobody acknowledged: a second one does not restart the clock.
 */
export function criticalFields(
  appointment: AppointmentRecord,
  stored: ClinicalResultRecord[],
  written: { biomarker_id: number; interpretation: Interpretation | null }[],
  newlyCritical: number[],
  catalog: Catalog,
  at: string,
): Partial<CriticalFields> | undefined {
  const now = new Map<number, Interpretation | null>(stored.map((r) => [r.biomarker_id, interpretationOfStored(r, catalog.biomarkers.get(r.biomarker_id))]));
  for (const r of written) now.set(r.biomarker_id, r.interpretation);
  const ids = [...now]
    .filter(([, interpretation]) => isCritical(interpretation))
    .map(([id]) => id)
    .sort((a, b) => a - b);
  if (newlyCritical.length > 0) {
    const waiting = (!appointment.critical_acknowledged_at && appointment.critical_waiting_since) || at;
    return {
      critical_biomarker_ids: ids,
      critical_reported_at: at,
      critical_acknowledged_at: null,
      critical_acknowledged_by: null,
      critical_waiting_since: waiting,
      ...index.unacknowledgedCritical(waiting, appointment.id),
    };
  }
  if (appointment.critical_biomarker_ids !== undefined && !isDeepStrictEqual(appointment.critical_biomarker_ids, ids)) return { critical_biomarker_ids: ids };
  return undefined;
}
