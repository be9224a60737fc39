/**
 * Appointments as stored: the APPT item plus its panel, biomarker and shipment links in one partition
 * (APPT#<id>), and the lifecycle the transition writer (shared/store/transitions.ts) changes it by.
 * Results and report documents live in the same partition; their records are in shared/store/lab-reports.ts.
 */
import { randomUUID } from 'node:crypto';
import type { AppointmentStatus } from '../../domain/appointment';
import { toUtcInstant } from '../../domain/instant';
import type { LabOrderState } from '../../domain/lab-order';
import type { Requisition } from '../../domain/requisition';
import { appointmentStatusChanged } from '../../events/status-changed';
import * as keys from '../keys/items';
import * as index from '../keys/index-entries';
import type { ClinicalResultRecord, DocumentLink, GeneticResultRecord, RejectedTestRecord } from '../lab-reports';
import type { SeatRef } from '../seats';
import type { Lifecycle } from '../transitions';

export interface AppointmentRecord {
  id: string;
  profile_id: string;
  /** The profile's group, copied here: the access context of an appointment is its profile's group. */
  profile_group_slug: string;
  location_id: string | null;
  scheduled_at: string | null;
  status: AppointmentStatus;
  test_method: 'practitioner' | 'home' | null;
  cancellation_reason: string | null;
  barcode: string | null;
  blood_drawn_at: string | null;
  picked_up_at: string | null;
  /** When the last planned result arrived (set by the lab report that completed it). */
  completed_at?: string;
  created_at: string;
  updated_at: string | null;
  /** How many times it was moved to another slot (absent: never): the SEQUENCE of the patient's calendar entry (issue #52). */
  schedule_seq?: number;
  /** How many history entries it has (shared/store/transitions.ts); absent before the history existed. */
  history_seq?: number;
  /**
   * Counts the attaches (absent before the first): confirm orders the tests it read, so its write is
   * conditional on this being unchanged, and a test attached meanwhile cannot miss the lab order.
   */
  tests_version?: number;
  /** The requisition its draw (or its kit's activation) made, with the tests ordered (issue #50); absent before. */
  requisition?: Requisition;
  /** The home kit whose activation made this sample (issue #51: the lab order's state is mirrored there); absent otherwise. */
  home_kit_order_id?: string;
  /** Its order's delivery to the lab over MLLP (issue #51, shared/store/lab-orders.ts); absent where no lab interface sends it. */
  lab_order?: LabOrderState;
  /** The appointment whose rejected specimen this one draws again (issue #29); absent otherwise. */
  recollection_of?: string;
  /**
   * The generation of its patient links (issue #53, shared/store/patient-links.ts): raised by a link issued with
   * `revoke_previous`; a link of an older generation opens nothing. Absent: 0.
   */
  patient_link_generation?: number;
  /** When its slot ends (scheduled_at plus the location's slot_minutes as booked); absent before slots. */
  ends_at?: string;
  /**
   * It holds a seat in its slot (shared/store/seats.ts), freed when it is cancelled or moved. Absent on
   * appointments booked before seats existed (until `npm run data -- seats` counts them) and on home kits'.
   */
  holds_seat?: boolean;
  /**
   * Critical results (issue #29): the tests whose current value is critical, when the last report that
   * found one arrived, and who acknowledged them since (a key id; null until then, and again after a
   * new critical value). Absent while none was ever critical.
   */
  critical_biomarker_ids?: number[];
  critical_reported_at?: string;
  critical_acknowledged_at?: string | null;
  critical_acknowledged_by?: string | null;
  /**
   * Since when critical values wait for an acknowledgement: the first one nobody acknowledged, kept while
   * more arrive; removed by the acknowledgement. The critical results check's clock (GSI2, keys.ts).
   */
  critical_waiting_since?: string;
}

export interface PanelLink {
  panel_id: string;
  added_at: string;
}
export interface BiomarkerLink {
  biomarker_id: number;
  added_at: string;
}
export interface ShipmentLink {
  id: string;
  added_at: string;
}

export interface AppointmentAggregate {
  appointment: AppointmentRecord;
  panels: PanelLink[];
  biomarkers: BiomarkerLink[];
  shipments: ShipmentLink[];
  clinicalResults: ClinicalResultRecord[];
  geneticResults: GeneticResultRecord[];
  /** Tests the lab could not perform on the specimen (a rejection), by biomarker. */
  rejectedTests: RejectedTestRecord[];
  documents: DocumentLink[];
}

export const APPOINTMENT_NOT_FOUND = 'Appointment not found';

/** A slot booked before ends_at existed was one of the default 15 minutes. */
const LEGACY_SLOT_MS = 15 * 60_000;

/** The slot an appointment at a location occupies, start and end (UTC instants); none for a home kit's. */
export function slotOf(appointment: AppointmentRecord): SeatRef | undefined {
  if (!appointment.location_id || !appointment.scheduled_at) return undefined;
  const end = appointment.ends_at ?? toUtcInstant(new Date(Date.parse(appointment.scheduled_at) + LEGACY_SLOT_MS));
  return { locationId: appointment.location_id, start: appointment.scheduled_at, end };
}

/** The seat the appointment holds, if it holds one. */
export const heldSeatOf = (appointment: AppointmentRecord): SeatRef | undefined => (appointment.holds_seat ? slotOf(appointment) : undefined);

/**
 * The one factory of a new appointment: booked at a location (`scheduled`), or born of an activated home
 * kit (`blood_drawn`, no location or time). Every other field starts empty.
 */
export function newAppointment(
  fields: Pick<AppointmentRecord, 'profile_id' | 'profile_group_slug' | 'location_id' | 'scheduled_at' | 'status' | 'test_method'> &
    Partial<Pick<AppointmentRecord, 'barcode' | 'blood_drawn_at' | 'recollection_of' | 'home_kit_order_id'>>,
  createdAt: string,
): AppointmentRecord {
  return {
    id: randomUUID(),
    cancellation_reason: null,
    barcode: null,
    blood_drawn_at: null,
    picked_up_at: null,
    created_at: createdAt,
    updated_at: null,
    ...fields,
  };
}

/** Its entry in the profile's list, sorted by scheduled_at (created_at for a home kit's). */
export const listingKeys = (appointment: AppointmentRecord) =>
  index.appointmentOfProfile(appointment.profile_id, appointment.scheduled_at ?? appointment.created_at, appointment.id);

export const appointmentLifecycle: Lifecycle<AppointmentRecord> = {
  key: (appointment) => keys.appointment(appointment.id),
  item: (appointment) => ({ ...keys.appointment(appointment.id), ...listingKeys(appointment), ...appointment }),
  event: ({ before, after, actor, at }) =>
    appointmentStatusChanged({
      occurred_at: at,
      source: actor.source,
      appointment_id: after.id,
      profile_id: after.profile_id,
      profile_group_slug: after.profile_group_slug,
      location_id: after.location_id,
      from_status: before?.status ?? null,
      status: after.status,
    }),
};
