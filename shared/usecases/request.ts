/** Who asks and when: what every use case receives from its caller besides the request's own input. */
import type { AccessContext } from '../auth/access';
import type { Actor } from '../domain/lifecycle';

export interface Caller {
  access: AccessContext;
  now: Date;
  /** Who the history and the events name; absent: the API key of `access` (source api). The patient's page says PATIENT. */
  actor?: Actor;
}
