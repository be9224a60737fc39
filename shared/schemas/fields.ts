/**
 * Field schemas shared by the request and response schemas. Request messages start with "must …":
 * shared/http/validation.ts prefixes the field's name, so a client reads "phone must be an E.164 phone
 * number (e.g. +4930123456)". `v.metadata` entries only document a rule that a custom check enforces
 * (docs/openapi.json is generated from these schemas); they validate nothing themselves.
 */
import * as v from 'valibot';
import { isCalendarDate } from '../domain/calendar';
import { isZonedDateTime, toUtcInstant } from '../domain/instant';
import { LAB_ORDER_STATUSES, type LabOrderState } from '../domain/lab-order';

export const uuid = v.pipe(v.string(), v.uuid('must be a valid UUID'));

/** Path parameters of `/…/{id}` routes whose id is a UUID. */
export const IdParams = v.object({ id: uuid });

/**
 * What no text field may hold: control characters (NUL, escape sequences, …; a free text keeps tab and line
 * breaks), invisible formatting characters (direction overrides that make a name read differently than it
 * is stored; zero-width joiners stay, emoji and Indic scripts need them) and unpaired surrogates, which are
 * not Unicode text at all and break every system downstream (the lab's, the PDF report, a FHIR validator).
 * With the `u` flag, `\p{Cs}` matches exactly the unpaired ones.
 */
const LINE_CONTROLS = /[\p{Cc}\p{Cs}]|(?![\u200c\u200d])\p{Cf}/u;
// Every control character except tab and line breaks.
const FREE_TEXT_CONTROLS = /[^\P{Cc}\t\n\r]|\p{Cs}|(?![\u200c\u200d])\p{Cf}/u;
const NO_CONTROLS = 'must not contain control or invisible formatting characters, or unpaired surrogates';
/** A check, not a pattern in the OpenAPI document: `\p{L}` needs the `u` flag, which not every JSON Schema validator sets. */
const LETTER = /\p{L}/u;

const atMost = (max: number) => v.maxLength<string, number, string>(max, `must be at most ${max} characters`);
const notEmpty = () => v.minLength<string, 1, string>(1, 'must not be empty');
const without = (controls: RegExp) => v.check<string, string>((value) => !controls.test(value), NO_CONTROLS);

/** One line of text: 1–max characters after trimming, no control characters. */
export const text = (max: number) => v.pipe(v.string(), v.trim(), notEmpty(), atMost(max), without(LINE_CONTROLS));

/** Text that may span lines (a note): tab and line breaks allowed, other controls not; may be empty after trimming. */
export const freeText = (max: number) => v.pipe(v.string(), v.trim(), atMost(max), without(FREE_TEXT_CONTROLS));

/** Free text that must say something (a cancellation reason). */
export const requiredFreeText = (max: number) => v.pipe(freeText(max), notEmpty());

/** A person's name: one line with at least one letter of any script ("-" or "1" is not a name). */
export const personName = (max: number) =>
  v.pipe(
    text(max),
    v.check((value) => LETTER.test(value), 'must contain a letter'),
    v.metadata({ description: 'contains at least one letter of any script' }),
  );

export const calendarDate = v.pipe(v.string(), v.isoDate('must be a real date (YYYY-MM-DD)'), v.check(isCalendarDate, 'must be a real date (YYYY-MM-DD)'));

/** ISO 8601 with Z or an offset; normalised to the UTC instant the API stores and answers. */
export const zonedDateTime = v.pipe(
  v.string(),
  v.metadata({ format: 'date-time', description: 'ISO 8601 with Z or an offset (+02:00); answered as the UTC instant' }),
  v.check(isZonedDateTime, 'must be an ISO 8601 date-time with a timezone (Z or an offset such as +02:00)'),
  v.transform((value) => toUtcInstant(value)),
);

export const e164Phone = v.pipe(
  v.string(),
  v.description('E.164, e.g. +4930123456'),
  v.regex(/^\+[1-9]\d{6,14}$/, 'must be an E.164 phone number (e.g. +4930123456)'),
);

export const email = v.pipe(v.string(), v.trim(), v.maxLength(254, 'must be at most 254 characters'), v.email('must be a valid email address'));

export const slug = v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'must be a slug of lower-case letters, digits and hyphens'));

export const numberBetween = (min: number, max: number, unit: string) =>
  v.pipe(v.number(), v.minValue(min, `must be between ${min} and ${max} (${unit})`), v.maxValue(max, `must be between ${min} and ${max} (${unit})`));

// Response fields: what the API answers. The contract tests validate every response against them.

/** An instant, answered in UTC with a Z: 2026-12-01T08:30:00Z or with milliseconds. */
export const instant = v.pipe(v.string(), v.isoTimestamp());
/** A calendar date YYYY-MM-DD. */
export const date = v.pipe(v.string(), v.isoDate());

/** A panel or biomarker attached to an appointment or a home kit order, and when it was first attached. */
export const AttachedPanel = v.object({ panel_id: uuid, added_at: instant });
export const AttachedBiomarker = v.object({ biomarker_id: v.pipe(v.number(), v.integer()), added_at: instant });

/** The requisition of a drawn sample (issue #50); null before the draw or the kit's activation. */
export const RequisitionSummary = v.pipe(
  v.nullable(v.object({ number: v.string(), created_at: instant })),
  v.description(
    'the requisition its draw or activation made: the number all its tests are ordered under (the form: GET …/requisition); null before, ' +
      'and on samples taken before requisitions existed',
  ),
);
export const toRequisitionSummary = (requisition: { number: string; created_at: string } | undefined) =>
  requisition ? { number: requisition.number, created_at: requisition.created_at } : null;

/** The delivery of a sample's order to the lab over HL7 v2 MLLP (issue #51); null where no lab interface sends it. */
export const LabOrderSummary = v.pipe(
  v.nullable(
    v.object({
      status: v.pipe(
        v.picklist(LAB_ORDER_STATUSES),
        v.description("pending (being sent) → accepted (the lab's AA) or refused (AE/AR, its reason in error); failed: no answer after every retry"),
      ),
      message_control_id: v.pipe(v.string(), v.description('MSH-10 of the order message, the same on every attempt: the requisition number without hyphens')),
      acknowledged_at: v.pipe(v.nullable(instant), v.description('when the lab answered; null before')),
      error: v.pipe(v.nullable(v.string()), v.description("the lab's reason for a refusal, or why the last attempt got no answer; null when accepted")),
    }),
  ),
  v.description("the order's delivery to the lab's interface engine (docs/hl7.md); null in a stage without one, and on samples sent before it existed"),
);
export const toLabOrderSummary = (state: LabOrderState | undefined) =>
  state ? { status: state.status, message_control_id: state.message_control_id, acknowledged_at: state.acknowledged_at, error: state.error } : null;

/** `{"success": true}`: the spec's answer to operations that return no resource. */
export const Success = v.object({ success: v.literal(true) });
export type Success = v.InferOutput<typeof Success>;

/** Every error: the HTTP status says what kind, the message what was wrong and what is allowed. */
export const ErrorBody = v.object({
  error: v.pipe(v.string(), v.description('A human-readable message; never echoes personal data.')),
});
