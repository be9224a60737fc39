// GET /api/v1/appointments/{id}/requisition — the requisition form that travels with the sample to the lab, as a PDF (beyond the spec, issue #50).
import { httpHandler } from '../../shared/http/handler';
import { binary } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { appointmentRequisitionForm } from '../../shared/usecases/requisition-form';
import * as routes from '../../shared/routes/appointments';

export const handler = httpHandler({
  route: routes.getAppointmentRequisition,
  params: IdParams,
  async run({ params, access }) {
    const { pdf, fileName } = await appointmentRequisitionForm(params.id, { access });
    return binary(Buffer.from(pdf), {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${fileName}"`,
      // English, the lab's language, whatever the patient's.
      'Content-Language': 'en',
    });
  },
});
