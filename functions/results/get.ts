// GET /api/v1/appointments/{id}/results — planned tests next to received results, genetic results, documents.
import { assertProfileResourceAccess } from '../../shared/auth/access';
import { clinicalResultItems, geneticResultItems, resultsStatus } from '../../shared/domain/results';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { toGeneticResult } from '../../shared/schemas/results';
import { getAppointmentAggregateOrThrow } from '../../shared/store/appointments/reads';
import { loadCatalog, plannedBiomarkers } from '../../shared/store/catalog';

export const handler = httpHandler({
  route: 'getAppointmentResults',
  params: IdParams,
  async run({ params, access }) {
    const [aggregate, catalog] = await Promise.all([getAppointmentAggregateOrThrow(params.id), loadCatalog()]);
    assertProfileResourceAccess(access, aggregate.appointment, 'appointment');
    const planned = plannedBiomarkers(aggregate, catalog);
    const received = new Map(aggregate.clinicalResults.map((result) => [result.biomarker_id, result]));
    const genetic = new Map(aggregate.geneticResults.map((result) => [result.biomarker_id, result]));
    return ok({
      status: resultsStatus(aggregate.appointment.status, planned, [...received.keys(), ...genetic.keys()]),
      clinical_results: clinicalResultItems(planned, catalog.biomarkers, received),
      genetic_results: geneticResultItems(planned, catalog.biomarkers, genetic).map((item) =>
        item.status === 'received' ? toGeneticResult(item.result) : item,
      ),
      documents: aggregate.documents.map(({ id, file_name }) => ({ id, file_name })),
    });
  },
});
