// GET /api/v1/appointments/{id}/results/fhir — the results as a FHIR R4 Bundle (beyond the spec).
import { assertProfileResourceAccess } from '../../shared/auth/access';
import { resultsStatus } from '../../shared/domain/results';
import { FHIR_JSON, resultsBundle } from '../../shared/fhir/results-bundle';
import { httpHandler } from '../../shared/http/handler';
import { textOf } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { getAppointmentAggregateOrThrow } from '../../shared/store/appointments/reads';
import { loadCatalog, plannedBiomarkers } from '../../shared/store/catalog';
import { getExistingProfile } from '../../shared/store/profiles';

export const handler = httpHandler({
  route: 'getAppointmentResultsFhir',
  params: IdParams,
  async run({ params, access, now, baseUrl }) {
    const [aggregate, catalog] = await Promise.all([getAppointmentAggregateOrThrow(params.id), loadCatalog()]);
    assertProfileResourceAccess(access, aggregate.appointment, 'appointment');
    const profile = await getExistingProfile(aggregate.appointment.profile_id);
    const received = [...aggregate.clinicalResults, ...aggregate.geneticResults].map((r) => r.biomarker_id);
    const status = resultsStatus(aggregate.appointment.status, plannedBiomarkers(aggregate, catalog), received);
    const bundle = resultsBundle({ aggregate, profile, biomarkers: catalog.biomarkers, complete: status === 'completed', baseUrl, now });
    return textOf(FHIR_JSON, JSON.stringify(bundle));
  },
});
