// GET /api/v1/appointments/{id}/order/fhir — the lab order as FHIR R4 ServiceRequests and Specimens (beyond the spec).
import { FHIR_JSON } from '../../shared/fhir/results-bundle';
import { httpHandler } from '../../shared/http/handler';
import { textOf } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { orderFhir } from '../../shared/usecases/order-fhir';
import * as routes from '../../shared/routes/orders';

export const handler = httpHandler({
  route: routes.getAppointmentOrderFhir,
  params: IdParams,
  async run({ params, access, now }) {
    return textOf(FHIR_JSON, JSON.stringify(await orderFhir(params.id, { access, now })));
  },
});
