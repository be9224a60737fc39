/** An access-log entry as `GET /profiles/{id}/access-log` answers it: who read what of a person, when, from where. */
import * as v from 'valibot';
import type { AccessLogEntry as StoredEntry } from '../store/access-log';
import { instant, uuid } from './fields';

export const AccessLogEntry = v.object({
  at: v.pipe(instant, v.description('When the read was answered.')),
  key_id: v.pipe(v.string(), v.description('The id of the API key that read (never its name).')),
  route: v.pipe(v.string(), v.description('The operation that read, by its operationId (getProfile, getAppointmentResults, …).')),
  resource: v.pipe(
    v.string(),
    v.description(
      'What was shown, by id, never a value: profile, profile appointments, profile home kit orders, appointment <id>, ' +
        'appointment <id> history, appointment <id> results (or results FHIR, results report), document <id>, home kit order <id>, …',
    ),
  ),
  profile_id: uuid,
  request_id: v.pipe(v.string(), v.description("API Gateway's id of the request, as its log line shows it.")),
  source_ip: v.pipe(
    v.nullable(v.string()),
    v.description("The address the request came from, as API Gateway saw it; null for a view through a patient link (the patient's address is not recorded)."),
  ),
});
export type AccessLogEntry = v.InferOutput<typeof AccessLogEntry>;

/** The stored entry, field by field (its key and expiry are not answered). */
export const toAccessLogEntry = (stored: StoredEntry): AccessLogEntry => ({
  at: stored.at,
  key_id: stored.key_id,
  route: stored.route,
  resource: stored.resource,
  profile_id: stored.profile_id,
  request_id: stored.request_id,
  source_ip: stored.source_ip,
});
