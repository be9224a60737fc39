/**
 * What the patient's link routes answer (issue #53, docs/patient-page.md): the page (HTML, with the renderer's
 * security headers, shared/patient-page/assets.ts) and its two JSON changes, which answer the state and time and
 * nothing of the person. Joined with the other resources in shared/contract/operations.ts.
 */
import type { RouteName } from '../../routes';
import { PatientChange } from '../../schemas/patient-page';
import { type OperationDoc } from '../operation-doc';

const HTML = { type: 'text/html', schema: { type: 'string' } } as const;
const PAGE_HEADERS = {
  'Content-Security-Policy': {
    description:
      "default-src 'none'; the page's one script and one style allowed by their SHA-256 hashes; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'",
    required: true,
  },
  'Content-Language': {
    description: "The profile's language (en, de or fi); `en, de, fi` on the pages of a link that opens nothing and of an error.",
    required: true,
  },
  'Referrer-Policy': { description: 'no-referrer: the token in the address never leaves in a Referer.', required: true },
  'X-Frame-Options': { description: 'DENY', required: true },
} as const;
const LINK_ERROR_PAGE = (what: string) =>
  ({ description: `${what} An HTML page, in en, de and fi, saying what to do (contact the clinic).`, content: HTML, headers: PAGE_HEADERS }) as const;
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds to wait before opening the page again.', required: true } } as const;
const BUSY_PAGE = (what: string) =>
  ({
    description: `${what} An HTML page, in en, de and fi, saying to try again in a minute.`,
    content: HTML,
    headers: { ...PAGE_HEADERS, ...RETRY_AFTER },
  }) as const;
const BUSY = 'the database could not answer now: retry after Retry-After seconds';
const RATE = 'more than 30 requests this minute from this link (page and changes together): retry after Retry-After seconds';
const CHANGES =
  'or this appointment already had 5 changes (reschedules and cancels together) through its links this UTC day: Retry-After says when the next day begins';
const NOT_OPEN = 'the link opens nothing: never issued, altered, revoked (an older link than a `revoke_previous`), or its profile was erased';
const EXPIRED = "the link expired: the appointment's slot has ended, or 30 days passed since it was issued";
const CROSS_SITE = "the request came from another site: its `Origin` is not the page's own, or `Sec-Fetch-Site` is not same-origin";
const JSON_ONLY = 'the body is not application/json (a form type included), or has no content type';
const CHANGED = { description: "The appointment's state and time now; nothing of the person.", schema: PatientChange } as const;

export const patientPageOperations = {
  getPatientPage: {
    tag: 'Patient links',
    summary: "The patient's appointment page",
    description:
      "Where a patient link leads: a page of that one appointment, server-rendered, in the profile's language, readable without JavaScript: " +
      "the first name, the date and time in the location's time zone, the location (name, address, map link), the preparation and the number " +
      'of samples, the status. While it is scheduled and at least 2 hours away, the free slots of the next 14 days at the same location, to ' +
      "reschedule to, and a cancel. Each view is recorded in the person's access log, the link as its reader. No API key.",
    responses: {
      200: { description: 'The page.', content: HTML, headers: PAGE_HEADERS },
      404: LINK_ERROR_PAGE('The link opens nothing: never issued, altered, revoked, or its profile was erased.'),
      410: LINK_ERROR_PAGE("The link expired: the appointment's slot has ended, or 30 days passed since it was issued."),
      429: BUSY_PAGE('More than 30 requests this minute from this link (page and changes together).'),
      500: {
        description: 'An unexpected error, logged with the request id. An HTML page, in en, de and fi, saying to try again later.',
        content: HTML,
        headers: PAGE_HEADERS,
      },
      503: BUSY_PAGE('The database could not answer now, or the view could not be recorded in the access log.'),
    },
  },
  reschedulePatientAppointment: {
    tag: 'Patient links',
    summary: 'Reschedule by patient link',
    description:
      "The page's reschedule: moves the link's appointment to `scheduled_at`, a free slot at the same location 2 hours to 14 days ahead, by the " +
      "API's booking rules; the AppointmentRescheduled event names the patient (source `patient`), with the same events and webhooks as a PATCH. " +
      'At most 5 changes per appointment and UTC day through its links. JSON only, from the page itself (same origin). No API key.',
    responses: { 200: CHANGED },
    errors: {
      400: 'scheduled_at is not a slot of the location, or less than 2 hours or more than 14 days ahead',
      403: CROSS_SITE,
      404: NOT_OPEN,
      409: 'the slot is full; the appointment is not scheduled (cancelled, or drawn); it is less than 2 hours away; or its location no longer takes bookings',
      410: EXPIRED,
      415: JSON_ONLY,
      429: `${RATE}; ${CHANGES}`,
      503: BUSY,
    },
    requestExample: { scheduled_at: '2026-12-02T09:30:00Z' },
  },
  cancelPatientAppointment: {
    tag: 'Patient links',
    summary: 'Cancel by patient link',
    description:
      "The page's cancel: cancels the link's appointment, with the patient's reason (at most 500 characters: the appointment's " +
      "`cancellation_reason`, as GET /appointments/{id} shows it, and its history's cancel entry; never in an event), recorded as the patient's " +
      "(history source `patient`), with the same events and webhooks as the API's cancel. At most 5 changes per appointment and UTC day through " +
      'its links. JSON only, from the page itself (same origin). No API key.',
    responses: { 200: CHANGED },
    errors: {
      403: CROSS_SITE,
      404: NOT_OPEN,
      409: 'the appointment is not scheduled (already cancelled, or drawn); or it is less than 2 hours away',
      410: EXPIRED,
      415: JSON_ONLY,
      429: `${RATE}; ${CHANGES}`,
      503: BUSY,
    },
    requestExample: { reason: 'I cannot come that day' },
  },
} as const satisfies Partial<Record<RouteName, OperationDoc>>;
