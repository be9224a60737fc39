// GET /health — no key: tells a load balancer or a developer that the function answers.
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';

export const handler = httpHandler({
  route: 'health',
  async run() {
    return ok({ status: 'ok' });
  },
});
