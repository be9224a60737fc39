/**
 * The inputs and answers of the patient's link (issue #53, docs/patient-page.md): the token in the path, what
 * issuing a link answers, and what a change by link answers (the state and time, nothing of the person). What a
 * client or the page sends is in bodies/patient-page.ts.
 */
import * as v from 'valibot';
import { APPOINTMENT_STATUSES } from '../domain/appointment';
import { instant } from './fields';

/**
 * Any text: a token of the wrong shape is a link that opens nothing (404), not a 400 (shared/store/patient-links.ts
 * checks the shape before it looks).
 */
export const PatientLinkParams = v.object({
  token: v.pipe(v.string(), v.description('The token of the link (32 random bytes, base64url), as the link route or an email gave it.')),
});

/**
 * The page's query: any parameters, all ignored. A link gains some on its way (a campaign's `utm_source`, a mail
 * scanner's marker) and must open all the same, never a 400.
 */
export const AnyQuery = v.looseObject({});

export const PatientLink = v.strictObject({
  url: v.pipe(v.string(), v.description('The page of this one appointment: `{origin}/p/{token}`. The token is the credential: hand it to the patient only.')),
  expires_at: v.pipe(
    instant,
    v.description(
      "When the link stops working, as computed now: the end of the appointment's slot, or 30 days after issue, whichever is first. " +
        'A moved appointment moves it: each use checks the slot as it is then.',
    ),
  ),
});

export const PatientChange = v.strictObject({
  status: v.pipe(v.picklist(APPOINTMENT_STATUSES), v.description('scheduled after a move, cancelled after a cancel')),
  scheduled_at: v.pipe(instant, v.description("The start of the appointment's slot (UTC).")),
  ends_at: v.pipe(instant, v.description("The end of the appointment's slot (UTC).")),
});
