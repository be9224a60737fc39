/** An appointment's results as a FHIR R4 Bundle (GET /appointments/{id}/results/fhir), with its patient. */
import { missingResults } from '../domain/results';
import { resultsBundle } from '../fhir/results-bundle';
import { getExistingProfile } from '../store/profiles';
import { readResults } from './read-results';
import type { Caller } from './request';

export async function resultsFhir(id: string, { access, now }: Caller, baseUrl: string): Promise<Record<string, unknown>> {
  const { aggregate, catalog, status, reportedAt, planned, clinical, genetic, rejected } = await readResults(id, access, 'results FHIR');
  const profile = await getExistingProfile(aggregate.appointment.profile_id);
  const missing = missingResults(planned, [...clinical.keys(), ...genetic.keys(), ...rejected.keys()]).length;
  return resultsBundle({ aggregate, biomarkers: catalog.biomarkers, status, missing, reportedAt, profile, baseUrl, now });
}
