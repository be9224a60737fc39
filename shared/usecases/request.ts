/** Who asks and when: what every use case receives from its caller besides the request's own input. */
import type { AccessContext } from '../auth/access';
import type { Actor } from '../domain/lifecycle';
import type { AppointmentRecord } from '../store/appointments/records';

export interface Caller {
  access: AccessContext;
  now: Date;
  /** Who the history and the events name; absent: the API key of `access` (source api). The patient's page says PATIENT. */
  actor?: Actor;
  /**
   * A rule of the caller's own on the appointment, beside the use case's: run on every read the use case
   * decides on (the first, and each read again after a lost race), throwing to refuse. The patient's page's
   * 2-hour cut-off (shared/usecases/patient-changes.ts). Used by the appointment changes that take it
   * (reschedule, cancel).
   */
  guard?: (appointment: AppointmentRecord) => void;
}
