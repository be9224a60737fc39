// GET /health — no key: tells a load balancer or a developer that the function answers.
import { publicHttpHandler } from '../../shared/http/stack';
import { ok } from '../../shared/http/responses';
import * as routes from '../../shared/routes/service';

export const handler = publicHttpHandler({
  route: routes.health,
  async run() {
    return ok({ status: 'ok' });
  },
});
