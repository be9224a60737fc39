/** What the service's lab-operations staff send to match or discard a lab report that matched no order (issue #51). */
import * as v from 'valibot';
import { requiredFreeText, uuid } from '../fields';

export const MatchUnmatchedResultBody = v.strictObject({
  appointment_id: v.pipe(uuid, v.description("the drawn appointment whose sample this is; in the key's access context")),
});

export const DiscardUnmatchedResultBody = v.strictObject({
  reason: v.pipe(requiredFreeText(500), v.description('why it belongs to no appointment (a test sample, a sample of another lab, …); kept until it expires')),
});
