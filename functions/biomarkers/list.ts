// GET /api/v1/biomarkers — the biomarker catalog (spec "not shown"), clinical and genetic, by id.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { toBiomarker } from '../../shared/schemas/catalog';
import { listBiomarkers } from '../../shared/store/catalog';
import * as routes from '../../shared/routes/locations';

export const handler = httpHandler({
  route: routes.listBiomarkers,
  async run() {
    return ok((await listBiomarkers()).map(toBiomarker));
  },
});
