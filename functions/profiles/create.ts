// POST /api/v1/profiles — creates a profile and assigns it to a profile group of the key.
import { httpHandler } from '../../shared/http/handler';
import { jsonBody } from '../../shared/http/json-body';
import { idempotentCreate } from '../../shared/http/idempotency';
import { created } from '../../shared/http/responses';
import { toCreatedProfile } from '../../shared/schemas/profiles';
import { CreateProfileBody } from '../../shared/schemas/bodies/profiles';
import { createProfile } from '../../shared/usecases/create-profile';
import * as routes from '../../shared/routes/profiles';

export const handler = httpHandler({
  route: routes.createProfile,
  idempotency: idempotentCreate(),
  body: jsonBody(CreateProfileBody),
  async run({ body, access, now }) {
    return created(toCreatedProfile(await createProfile(body, { access, now })));
  },
});
