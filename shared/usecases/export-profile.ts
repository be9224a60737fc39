/**
 * A person's data export (GET /profiles/{id}/export; GDPR Art. 15 and 20): the profile, every appointment
 * with its history, tests, shipment links, results and document references, and every home kit order with
 * its history, as the one versioned document of shared/schemas/export.ts.
 *
 * Read in bounded steps, so that a person with hundreds of appointments exports within a Lambda's time and
 * memory: the profile's appointments and kit orders page after page (PAGE_SIZE items per Query, the same
 * paged queries as the profile's list routes), and each page's items READ_CONCURRENCY at a time. An
 * appointment costs two Queries: its partition (links, results, documents), read by readResults like every
 * results route, and its history. A kit order costs one: its history (the list item is the whole order).
 * The two lists are read side by side, so at most 8 appointments and 8 kit orders are in flight.
 *
 * The access log records the export once, as `profile export`.
 */
import { createSecretKey, randomBytes } from 'node:crypto';
import { type AccessContext, assertProfileGroupAccess } from '../auth/access';
import type { AppointmentStatus } from '../domain/appointment';
import type { HomeKitOrderStatus } from '../domain/home-kit-order';
import { NotFound } from '../errors';
import { type ProfileExport, toExportedAppointment, toExportedHomeKitOrder, toProfileExport } from '../schemas/export';
import { listAppointmentsOfProfile } from '../store/appointments/reads';
import { type Catalog, loadCatalog } from '../store/catalog';
import { pageHistory } from '../store/history';
import { listHomeKitOrdersOfProfile } from '../store/home-kit-orders';
import { pageMessages } from '../store/messages';
import * as keys from '../store/keys/items';
import type { CursorBinding, Page, PageRequest } from '../store/pages';
import { getProfile, PROFILE_NOT_FOUND, type ProfileRecord } from '../store/profiles';
import { readResults } from './read-results';
import type { Caller } from './request';

/** Items per Query of a list or a history: DynamoDB's 1 MB page holds far more, so a page is one round trip. */
const PAGE_SIZE = 100;
/** Appointments (or kit orders) read at once: enough to hide round-trip latency, few enough not to burst the table. */
const READ_CONCURRENCY = 8;

/**
 * The cursors of these pages never leave this function, so a key made per container signs them: the route
 * needs no CURSOR_SECRET, which the stack gives only to the routes that answer pages (shared/usecases/paging.ts).
 */
const OWN_PAGES: CursorBinding = { reader: 'profile-export', secret: createSecretKey(randomBytes(32)) };

export async function exportProfile(id: string, { access, now }: Caller, baseUrl: string): Promise<ProfileExport> {
  const profile = await getProfile(id);
  if (!profile) throw new NotFound(PROFILE_NOT_FOUND);
  assertProfileGroupAccess(access, profile.profile_group_slug, 'profile');
  access.audit?.read(profile.id, 'profile export');
  // The export is one read of everything, recorded once above: its appointments' results reads record nothing of
  // their own (one access log write per appointment would say no more, at the cost of a write each).
  const { audit: _recordedOnce, ...quietAccess } = access;
  // Loaded once here, so that the parallel results reads below find it cached instead of each loading it;
  // the representations' preparation and specimens read it too.
  const catalog = await loadCatalog();
  const [appointments, homeKitOrders, messages] = await Promise.all([
    mapPages(
      (page) => listAppointmentsOfProfile(id, page),
      (appointment) => exportAppointment(appointment.id, profile, quietAccess, catalog, baseUrl),
    ),
    mapPages(
      (page) => listHomeKitOrdersOfProfile(id, page),
      async (order) =>
        toExportedHomeKitOrder(order, await allPages((page) => pageHistory<HomeKitOrderStatus>(keys.homeKitOrder(order.id), page)), profile, catalog),
    ),
    // The emails sent to the person, or why not (issue #52), as GET /profiles/{id}/messages lists them.
    allPages((page) => pageMessages(id, page)),
  ]);
  return toProfileExport(profile, appointments, homeKitOrders, messages, now);
}

async function exportAppointment(id: string, profile: ProfileRecord, access: AccessContext, catalog: Catalog, baseUrl: string) {
  const [results, history] = await Promise.all([readResults(id, access), allPages((page) => pageHistory<AppointmentStatus>(keys.appointment(id), page))]);
  return toExportedAppointment({ results, history }, profile, catalog, baseUrl);
}

type PageReader<T> = (page: PageRequest) => Promise<Page<T>>;

/** Every item of a paged list, in its order: one page read, its items mapped READ_CONCURRENCY at a time, then the next. */
async function mapPages<T, R>(read: PageReader<T>, map: (item: T) => Promise<R>): Promise<R[]> {
  const mapped: R[] = [];
  let cursor: string | undefined;
  do {
    const page = await read({ limit: PAGE_SIZE, cursor, binding: OWN_PAGES });
    mapped.push(...(await mapConcurrently(page.items, map)));
    cursor = page.next;
  } while (cursor);
  return mapped;
}

const allPages = <T>(read: PageReader<T>) => mapPages(read, async (item) => item);

/** `map` over the items, at most READ_CONCURRENCY at once; the results in the items' order. */
async function mapConcurrently<T, R>(items: T[], map: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next;
      next += 1;
      results[i] = await map(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, items.length) }, worker));
  return results;
}
