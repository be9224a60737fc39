// GET /api/v1/home-kit-orders/{id}/requisition — the requisition form of the kit's sample, as a PDF (beyond the spec, issue #50).
import { httpHandler } from '../../shared/http/handler';
import { binary } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { homeKitRequisitionForm } from '../../shared/usecases/requisition-form';
import * as routes from '../../shared/routes/home-kit-orders';

export const handler = httpHandler({
  route: routes.getHomeKitOrderRequisition,
  params: IdParams,
  async run({ params, access }) {
    const { pdf, fileName } = await homeKitRequisitionForm(params.id, { access });
    return binary(Buffer.from(pdf), {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${fileName}"`,
      // English, the lab's language, whatever the patient's.
      'Content-Language': 'en',
    });
  },
});
