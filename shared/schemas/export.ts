/**
 * A person's data export (GET /profiles/{id}/export; GDPR Art. 15 and 20): one JSON document made of the
 * representations the other routes answer, so a field means here what it means there.
 *
 * The document names its format and version at the top. Within a version, fields may be added; removing
 * or renaming one, or changing what it means, makes a new version.
 */
import * as v from 'valibot';
import type { HistoryEntry } from '../domain/lifecycle';
import type { AppointmentStatus } from '../domain/appointment';
import type { HomeKitOrderStatus } from '../domain/home-kit-order';
import type { AppointmentAggregate } from '../store/appointments/records';
import type { Catalog } from '../store/catalog';
import type { HomeKitOrderRecord } from '../store/home-kit-orders';
import type { ProfileRecord } from '../store/profiles';
import { Appointment, toAppointment } from './appointments';
import { instant } from './fields';
import { AppointmentHistoryEntry, HomeKitOrderHistoryEntry, toHistoryEntry } from './history';
import { HomeKitOrder, toHomeKitOrder } from './home-kit-orders';
import { Profile, toFullProfile } from './profiles';
import { AppointmentResults, ResultsDocument, toAppointmentResults } from './results';
import type { MessageRecord } from '../store/messages';
import { Message, toMessage } from './messages';

export const EXPORT_FORMAT = 'lab-api.profile-export';
export const EXPORT_VERSION = 1;

const history = <S extends v.GenericSchema>(entry: S) => v.pipe(v.array(entry), v.description('every status change, oldest first, the creation first'));

/** A lab report file of an appointment: what it is called and where to download it. */
export const ExportedDocument = v.object({
  ...v.pick(ResultsDocument, ['id', 'file_name', 'kind', 'result_status']).entries,
  added_at: instant,
  download_url: v.pipe(v.string(), v.description('GET /api/v1/documents/{id} of this API; needs a key with RESULTS_VIEW')),
});
export type ExportedDocument = v.InferOutput<typeof ExportedDocument>;

/** The results as GET /appointments/{id}/results answers them; the documents are listed beside them. */
export const ExportedResults = v.omit(AppointmentResults, ['documents']);

/** An appointment as GET /appointments/{id} answers it (the profile is the export's own), with what happened to it. */
export const ExportedAppointment = v.object({
  ...v.omit(Appointment, ['profile']).entries,
  history: history(AppointmentHistoryEntry),
  results: ExportedResults,
  documents: v.pipe(v.array(ExportedDocument), v.description('the lab report files, oldest first')),
});
export type ExportedAppointment = v.InferOutput<typeof ExportedAppointment>;

/** A kit order as GET /home-kit-orders/{id} answers it (the profile is the export's own), with its history. */
export const ExportedHomeKitOrder = v.object({
  ...v.omit(HomeKitOrder, ['profile']).entries,
  history: history(HomeKitOrderHistoryEntry),
});
export type ExportedHomeKitOrder = v.InferOutput<typeof ExportedHomeKitOrder>;

export const ProfileExport = v.object({
  format: v.pipe(v.literal(EXPORT_FORMAT), v.description('what this document is')),
  version: v.pipe(v.literal(EXPORT_VERSION), v.description('the version of its shape: a change that is not an added field makes a new one')),
  exported_at: instant,
  profile: Profile,
  appointments: v.pipe(
    v.array(ExportedAppointment),
    v.description("every appointment of the person, newest scheduled_at first; shipment links are each appointment's `shipments`"),
  ),
  home_kit_orders: v.pipe(v.array(ExportedHomeKitOrder), v.description('every home kit order of the person, newest first')),
  messages: v.pipe(v.array(Message), v.description('every email sent to the person, or decided not sent and why, newest first (GET /profiles/{id}/messages)')),
});
export type ProfileExport = v.InferOutput<typeof ProfileExport>;

/** What an appointment's export is made of: readResults' reading (its aggregate and results) and its history. */
export interface AppointmentReading {
  results: Parameters<typeof toAppointmentResults>[0] & { aggregate: AppointmentAggregate };
  history: HistoryEntry<AppointmentStatus>[];
}

/** `baseUrl`: the API's address as the request reached it (shared/http/handler.ts), for the download links. */
export function toExportedAppointment(
  { results, history }: AppointmentReading,
  profile: ProfileRecord,
  catalog: Catalog,
  baseUrl: string,
): ExportedAppointment {
  const { profile: _own, ...appointment } = toAppointment(results.aggregate, profile, catalog);
  const { documents: _links, ...received } = toAppointmentResults(results);
  return {
    ...appointment,
    history: history.map(toHistoryEntry),
    results: received,
    documents: results.aggregate.documents.map(({ id, file_name, kind, result_status, added_at }) => ({
      id,
      file_name,
      kind,
      result_status,
      added_at,
      download_url: `${baseUrl.replace(/\/$/, '')}/api/v1/documents/${id}`,
    })),
  };
}

export function toExportedHomeKitOrder(
  order: HomeKitOrderRecord,
  history: HistoryEntry<HomeKitOrderStatus>[],
  profile: ProfileRecord,
  catalog: Catalog,
): ExportedHomeKitOrder {
  const { profile: _own, ...rest } = toHomeKitOrder(order, profile, catalog);
  return { ...rest, history: history.map(toHistoryEntry) };
}

export function toProfileExport(
  profile: ProfileRecord,
  appointments: ExportedAppointment[],
  homeKitOrders: ExportedHomeKitOrder[],
  messages: MessageRecord[],
  exportedAt: Date,
): ProfileExport {
  return {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    exported_at: exportedAt.toISOString(),
    profile: toFullProfile(profile),
    appointments,
    home_kit_orders: homeKitOrders,
    messages: messages.map(toMessage),
  };
}
