/** What the profile routes answer: a person's record, its erasure, its export, its access log and its messages. Joined with the other resources in shared/contract/operations.ts. */
import type { RouteName } from '../../routes';
import { AccessLogEntry } from '../../schemas/access-log';
import { ProfileExport } from '../../schemas/export';
import { Message } from '../../schemas/messages';
import { CreatedProfile, EmbeddedProfile, Profile, ProfileErasure } from '../../schemas/profiles';
import * as examples from '../examples';
import { CHANGE_NOT_SHOWN, list, type OperationDoc, PAGE, READ_NOT_RECORDED } from '../operation-doc';

export const profilesOperations = {
  createProfile: {
    tag: 'Profiles',
    summary: 'Create a profile',
    description: 'Creates a profile and assigns it to a profile group. first_name, last_name and date_of_birth (in the past) are required.',
    responses: { 201: { description: 'The profile, without timestamps.', schema: CreatedProfile, example: examples.createdProfile } },
    errors: { 404: 'profile group not found' },
    requestExample: examples.createProfileBody,
  },
  getProfile: {
    tag: 'Profiles',
    summary: 'Get a profile',
    description: 'The profile with all fields, created_at, updated_at and transactional_emails_enabled included.',
    responses: { 200: { description: 'The profile.', schema: Profile } },
    errors: { 404: 'profile not found', 503: READ_NOT_RECORDED },
  },
  updateProfile: {
    tag: 'Profiles',
    summary: 'Update a profile',
    description: 'Partial update: only the fields sent change; null clears an optional field.',
    responses: { 200: { description: 'The full updated profile including created_at and updated_at.', schema: EmbeddedProfile } },
    errors: { 404: 'profile not found', 409: 'the profile was erased', 503: CHANGE_NOT_SHOWN },
  },
  eraseProfile: {
    tag: 'Profiles',
    summary: "Erase a person's identifiers (GDPR Art. 17)",
    description:
      'Sets first_name, last_name, handle, email, phone, date_of_birth, sex, height, weight and transactional_emails_enabled to null and ' +
      'marks the profile `erased_at`; cancels its scheduled appointments and its pending or dispatched kit orders through their normal ' +
      'transitions (history entries and events, reason "profile erased"); removes the inline delivery address of every kit order. Lab ' +
      'results and their documents are kept (medical records), linked only to the profile id. Afterwards the profile cannot be ' +
      'changed (409) and no appointment or kit order can be made for it (409). Idempotent: a retry after a failure finishes the ' +
      'erasure; erasing an erased profile changes nothing and answers 200 with empty lists.',
    responses: { 200: { description: 'The erased profile and what this call changed.', schema: ProfileErasure } },
    errors: { 404: 'profile not found', 503: 'the profile is erased, but an appointment or kit order kept changing meanwhile: retry to finish' },
  },
  exportProfile: {
    tag: 'Profiles',
    summary: "Export a person's data (GDPR Art. 15/20)",
    description:
      'Everything the API holds about one person, as one JSON document: the profile (also an erased one), every appointment with its ' +
      'status history, tests, shipment links (`shipments`), results (clinical and genetic, as GET /appointments/{id}/results answers ' +
      'them) and lab report files (`documents`: id, file name, `download_url`), and every home kit order with its history. The ' +
      '`format` ("lab-api.profile-export") and `version` (1) at the top name the shape: within a version fields may be added; a change ' +
      'that removes, renames or redefines one makes a new version. Needs both PROFILES_VIEW and RESULTS_VIEW. The document must fit ' +
      'in one API response (6 MB, about 2,000 appointments with 4 results each); a larger one is refused with 413 rather than cut short.',
    responses: { 200: { description: 'The export, version 1.', schema: ProfileExport } },
    errors: {
      404: 'profile not found',
      413: "the export is larger than one API response can carry: read the person's data through the profile's list routes instead",
      503: READ_NOT_RECORDED,
    },
  },
  listProfileAccessLog: {
    tag: 'Profiles',
    summary: "List who read a person's data",
    description:
      "The access log of a profile, newest first, paged: one entry per successful read of the person's data (the profile, its " +
      'lists, an appointment and its history, results in every form, a document, a home kit order and its history, the export): when, ' +
      'the API key id, the operation, what was shown (by id, never a value), the request id and the source address. A read is answered ' +
      'only once its entry is stored. Entries are kept AUDIT_RETENTION_DAYS (default 730 days), then deleted by DynamoDB TTL. ' +
      'Reading the access log is not itself logged.',
    responses: { 200: { description: 'A page of access-log entries.', schema: list(AccessLogEntry), ...PAGE } },
    errors: { 404: 'profile not found' },
  },
  listProfileMessages: {
    tag: 'Profiles',
    summary: 'List the emails sent to a person',
    description:
      'The messages of a profile, newest first, paged: one per event that asks for one (an appointment booked, moved, cancelled or ' +
      'due tomorrow, a kit dispatched, results ready, a specimen rejected), sent or not, and if not, why (`status`). Only with the ' +
      "person's consent: `transactional_emails_enabled` must be `true` (null, never set, sends nothing). The subject is shown, never " +
      "the body; the read is recorded in the person's access log. An erased profile's list is empty: the erasure deleted its " +
      'messages. See docs/messages.md.',
    responses: { 200: { description: 'A page of messages.', schema: list(Message), ...PAGE } },
    errors: { 404: 'profile not found', 503: READ_NOT_RECORDED },
  },
} as const satisfies Partial<Record<RouteName, OperationDoc>>;
