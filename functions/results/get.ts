// GET /api/v1/appointments/{id}/results — planned tests next to received results, genetic results, documents.
import { clinicalResultItems, geneticResultItems } from '../../shared/domain/results';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { toGeneticResult } from '../../shared/schemas/results';
import { readResults } from '../../shared/usecases/read-results';

export const handler = httpHandler({
  route: 'getAppointmentResults',
  params: IdParams,
  async run({ params, access }) {
    const { aggregate, catalog, planned, clinical, genetic, status } = await readResults(params.id, access);
    return ok({
      status,
      clinical_results: clinicalResultItems(planned, catalog.biomarkers, clinical),
      genetic_results: geneticResultItems(planned, catalog.biomarkers, genetic).map((item) =>
        item.status === 'received' ? toGeneticResult(item.result) : item,
      ),
      documents: aggregate.documents.map(({ id, file_name }) => ({ id, file_name })),
    });
  },
});
