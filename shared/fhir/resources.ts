/**
 * What the results bundle and the order bundle share: the Patient, the references between them, and the
 * ids of the order's ServiceRequests, derived from our ids so that each bundle names the other's
 * resources without a lookup.
 */
import { derivedUuid } from '../derived-uuid';
import type { ProfileRecord } from '../store/profiles';
import { genderOf, SERVICE_REQUEST_SYSTEM } from './codes';

type Json = Record<string, unknown>;

export const urn = (id: string) => `urn:uuid:${id}`;

/** The ServiceRequest of one test of an appointment's order. */
export const serviceRequestId = (appointmentId: string, biomarkerId: number) => derivedUuid([appointmentId, 'service-request', biomarkerId]);

/** Its identifier, which the order bundle gives it and the results bundle names it by (`basedOn`). */
export const serviceRequestIdentifier = (appointmentId: string, biomarkerId: number) => ({
  system: SERVICE_REQUEST_SYSTEM,
  value: serviceRequestId(appointmentId, biomarkerId),
});

/** A minimal Patient: the name, sex and birth date, as the profile holds them (an erased one: none). */
export function patient(profile: ProfileRecord): Json {
  return {
    resourceType: 'Patient',
    id: profile.id,
    ...(profile.first_name || profile.last_name
      ? { name: [{ ...(profile.last_name ? { family: profile.last_name } : {}), ...(profile.first_name ? { given: [profile.first_name] } : {}) }] }
      : {}),
    gender: genderOf(profile.sex),
    ...(profile.date_of_birth ? { birthDate: profile.date_of_birth } : {}),
  };
}
