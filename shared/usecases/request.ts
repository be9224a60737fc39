/** Who asks and when: what every use case receives from its caller besides the request's own input. */
import type { AccessContext } from '../auth/access';

export interface Caller {
  access: AccessContext;
  now: Date;
}
