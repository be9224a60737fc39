/** What the patient's page sends to its link's JSON endpoints (issue #53, docs/patient-page.md): a new time, or a cancel with an optional reason. */
import * as v from 'valibot';
import { zonedDateTime } from '../fields';

export const RescheduleByLinkBody = v.strictObject({
  scheduled_at: v.pipe(zonedDateTime, v.description('One of the free slot starts the page lists: at the same location, 2 hours to 14 days ahead.')),
});

export const CancelByLinkBody = v.strictObject({
  reason: v.optional(
    v.pipe(
      v.string(),
      v.maxLength(500, 'must be at most 500 characters'),
      v.description(
        "The patient's reason: the appointment's cancellation_reason (GET /appointments/{id} shows it) and its history's cancel entry; never in an event.",
      ),
    ),
  ),
});
