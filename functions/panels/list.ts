// GET /api/v1/panels — the panel catalog (spec "not shown"): what can be attached to an appointment or kit.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { toPanel } from '../../shared/schemas/catalog';
import { listPanels } from '../../shared/store/catalog';
import * as routes from '../../shared/routes/locations';

export const handler = httpHandler({
  route: routes.listPanels,
  async run() {
    return ok((await listPanels()).map(toPanel));
  },
});
