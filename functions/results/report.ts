// GET /api/v1/appointments/{id}/results/report — the results as a PDF a person reads at a glance (beyond the spec).
import { httpHandler } from '../../shared/http/handler';
import { binary } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { resultsReport } from '../../shared/usecases/results-report';
import * as routes from '../../shared/routes/results';

export const handler = httpHandler({
  route: routes.getAppointmentResultsReport,
  params: IdParams,
  async run({ params, access, now }) {
    const { pdf, fileName, language } = await resultsReport(params.id, { access, now });
    return binary(Buffer.from(pdf), {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${fileName}"`,
      // The profile's language, which the report is written in.
      'Content-Language': language,
    });
  },
});
