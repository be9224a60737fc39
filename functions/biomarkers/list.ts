// GET /api/v1/biomarkers — the biomarker catalog (spec "not shown"), clinical and genetic, by id.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { toBiomarker } from '../../shared/schemas/catalog';
import { listBiomarkers } from '../../shared/store/catalog';

export const handler = httpHandler({
  route: 'listBiomarkers',
  async run() {
    return ok((await listBiomarkers()).map(toBiomarker));
  },
});
