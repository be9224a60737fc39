/**
 * DynamoDB round trips and items read per request, for every route of shared/routes.ts, counted at the SDK
 * edge of the app's client (a middleware on its stack, which the document client shares): each command by
 * name, and from its response the items DynamoDB read — GetItem with an Item 1, Query and Scan their
 * ScannedCount (what was read before any filter), BatchGetItem and TransactGetItems the items they returned.
 * On a list (an answer that is a JSON array) items read / items returned says what a page costs beyond
 * what it shows. Each route is asked twice, each time with state of its own, and the second (warm: key
 * lookup and catalog cached, as in a warm Lambda) is reported.
 *
 * PROBES has one entry per route name (the type requires it), so a new route fails the type check until
 * it has its request here: the method and path come from the routes table.
 */
import { randomUUID } from 'node:crypto';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { type RouteName, routeEntries, routes } from '../../../shared/routes';
import { type Answer, BERLIN_MITTE, type Call, ESSENTIALS_PANEL, idOf, nextWeekday } from './api-client';
import type { Figure } from './report';
import { createSlotPicker } from '../slot-picker';

export interface Probe {
  params?: Record<string, string>;
  query?: string;
  body?: unknown;
}

/** Counts of one request. */
interface Counted {
  calls: string[];
  itemsRead: number;
}

type MiddlewareStack = DynamoDBClient['middlewareStack'];

/** The counter at the SDK edge: every command the app's client sends, by name, and the items it read. */
export function countAtSdkEdge(stack: MiddlewareStack): { current: Counted; reset(): Counted } {
  const counter = {
    current: { calls: [], itemsRead: 0 } as Counted,
    reset() {
      const was = counter.current;
      counter.current = { calls: [], itemsRead: 0 };
      return was;
    },
  };
  stack.add(
    (next, context) => async (args) => {
      const result = await next(args);
      const output = result.output as unknown as Record<string, unknown>;
      const command = (context.commandName ?? 'unknown').replace(/Command$/, '');
      counter.current.calls.push(command);
      counter.current.itemsRead += itemsRead(command, output);
      return result;
    },
    { step: 'initialize', name: 'benchRoundTripCounter' },
  );
  return counter;
}

function itemsRead(command: string, output: Record<string, unknown>): number {
  switch (command) {
    case 'GetItem':
      return output.Item ? 1 : 0;
    case 'Query':
    case 'Scan':
      return Number(output.ScannedCount ?? 0);
    case 'BatchGetItem':
      return Object.values((output.Responses ?? {}) as Record<string, unknown[]>).reduce((sum, items) => sum + items.length, 0);
    case 'TransactGetItems':
      return ((output.Responses ?? []) as { Item?: unknown }[]).filter((response) => response.Item).length;
    default:
      return 0;
  }
}

export interface World {
  call: Call;
  /** A profile with LIST_SIZE appointments, LIST_SIZE kit orders and LIST_SIZE access-log entries. */
  listedProfile: string;
  /** A drawn appointment with the lab's results and one document. */
  reported: { appointmentId: string; documentId: string };
  /** LIST_SIZE shipments and webhooks exist for the key. */
  fresh: {
    profile(): Promise<string>;
    appointment(options?: { panels?: boolean; drawn?: boolean }): Promise<string>;
    shipment(): Promise<string>;
    kitOrder(options?: { panels?: boolean; dispatched?: boolean }): Promise<string>;
    webhook(): Promise<string>;
  };
  barcode(): string;
}

type Prober = (world: World) => Promise<Probe>;

const PROFILE = { profile_group_slug: 'demo-clinic', first_name: 'Bench', last_name: 'Mark', date_of_birth: '1980-01-01' };
const ADDRESS = { name: 'Bench Mark', street: 'Beispielweg', house_number: '7', postal_code: '10117', city: 'Berlin', country: 'DE' };
/** New bookable slots: every booking of the bench its own (infra/local/slot-picker.ts). */
const slotIn = createSlotPicker();

/** A request per route that answers 2xx. `list`: a paged list, asked also with `limit`. */
export const PROBES = {
  health: async () => ({}),
  getOpenApiDocument: async () => ({}),
  getDocsPage: async () => ({}),
  getDocsAsset: async () => ({ params: { file: 'docs.js' } }),
  createProfile: async () => ({ body: PROFILE }),
  getProfile: async (w) => ({ params: { id: await w.fresh.profile() } }),
  updateProfile: async (w) => ({ params: { id: await w.fresh.profile() }, body: { language: 'de' } }),
  eraseProfile: async (w) => ({ params: { id: await w.fresh.profile() } }),
  exportProfile: async (w) => ({ params: { id: w.listedProfile } }),
  listLocations: async () => ({}),
  getLocation: async () => ({ params: { id: BERLIN_MITTE } }),
  // The clinic's own schedule, set again as it is (capacity as seeded): nothing moves.
  updateLocation: async () => ({ params: { id: BERLIN_MITTE }, body: { capacity_per_slot: 2 } }),
  // A week of the location's slots (what a booking app shows by default): its cost is in the availability figure.
  getLocationAvailability: async () => ({ params: { id: BERLIN_MITTE } }),
  listPanels: async () => ({}),
  listBiomarkers: async () => ({}),
  createAppointment: async (w) => ({ body: { profile_id: await w.fresh.profile(), location_id: BERLIN_MITTE, scheduled_at: slotIn(1) } }),
  getAppointment: async (w) => ({ params: { id: await w.fresh.appointment() } }),
  updateAppointment: async (w) => ({ params: { id: await w.fresh.appointment() }, body: { scheduled_at: slotIn(2) } }),
  attachAppointmentPanels: async (w) => ({ params: { id: await w.fresh.appointment({ panels: false }) }, body: { panel_ids: [ESSENTIALS_PANEL] } }),
  attachAppointmentBiomarkers: async (w) => ({ params: { id: await w.fresh.appointment() }, body: { biomarker_ids: [3] } }),
  confirmAppointment: async (w) => ({ params: { id: await w.fresh.appointment() }, body: { barcode: w.barcode() } }),
  cancelAppointment: async (w) => ({ params: { id: await w.fresh.appointment() }, body: { cancellation_reason: 'bench' } }),
  pickupAppointments: async (w) => ({ body: { appointment_ids: [await w.fresh.appointment({ drawn: true })] } }),
  listProfileAppointments: async (w) => ({ params: { id: w.listedProfile } }),
  listAppointmentHistory: async (w) => ({ params: { id: w.reported.appointmentId } }),
  getAppointmentResults: async (w) => ({ params: { id: w.reported.appointmentId } }),
  getAppointmentResultsHistory: async (w) => ({ params: { id: w.reported.appointmentId } }),
  // Needs an appointment with a critical value (the bench's lab reports plausible ones): covered by
  // test/integration/results-lifecycle.test.ts.
  acknowledgeAppointmentResults: undefined,
  getAppointmentResultsFhir: async (w) => ({ params: { id: w.reported.appointmentId } }),
  getAppointmentResultsReport: async (w) => ({ params: { id: w.reported.appointmentId } }),
  getDocument: async (w) => ({ params: { id: w.reported.documentId } }),
  createShipment: async () => ({ body: { location_id: BERLIN_MITTE, pickup_date: nextWeekday(), pickup_time_from: '10:00', pickup_time_till: '12:00' } }),
  listShipments: async () => ({}),
  getShipment: async (w) => ({ params: { id: await w.fresh.shipment() } }),
  updateShipment: async (w) => ({ params: { id: await w.fresh.shipment() }, body: { pickup_time_till: '13:00' } }),
  cancelShipment: async (w) => ({ params: { id: await w.fresh.shipment() } }),
  listShipmentHistory: async (w) => ({ params: { id: await w.fresh.shipment() } }),
  updateShipmentStatus: async (w) => ({ params: { id: await w.fresh.shipment() }, body: { status: 'shipped', tracking_number: 'TRACK-1234' } }),
  createHomeKitOrder: async (w) => ({ body: { profile_id: await w.fresh.profile(), delivery_address: ADDRESS } }),
  getHomeKitOrder: async (w) => ({ params: { id: await w.fresh.kitOrder() } }),
  cancelHomeKitOrder: async (w) => ({ params: { id: await w.fresh.kitOrder() } }),
  attachHomeKitOrderPanels: async (w) => ({ params: { id: await w.fresh.kitOrder({ panels: false }) }, body: { panel_ids: [ESSENTIALS_PANEL] } }),
  attachHomeKitOrderBiomarkers: async (w) => ({ params: { id: await w.fresh.kitOrder() }, body: { biomarker_ids: [3] } }),
  dispatchHomeKitOrder: async (w) => ({ params: { id: await w.fresh.kitOrder() }, body: { tracking_number: 'TRACK-1234', carrier: 'DHL' } }),
  activateHomeKitOrder: async (w) => ({ params: { id: await w.fresh.kitOrder({ dispatched: true }) }, body: { barcode: w.barcode() } }),
  listHomeKitOrderHistory: async (w) => ({ params: { id: await w.fresh.kitOrder({ dispatched: true }) } }),
  createWebhook: async () => ({ body: { url: 'http://127.0.0.1:9/hooks', event_types: ['ShipmentStatusChanged'] } }),
  listWebhooks: async () => ({}),
  getWebhook: async (w) => ({ params: { id: await w.fresh.webhook() } }),
  updateWebhook: async (w) => ({ params: { id: await w.fresh.webhook() }, body: { description: 'bench' } }),
  deleteWebhook: async (w) => ({ params: { id: await w.fresh.webhook() } }),
  rotateWebhookSecret: async (w) => ({ params: { id: await w.fresh.webhook() } }),
  sendTestWebhook: async (w) => ({ params: { id: await w.fresh.webhook() } }),
  listWebhookDeliveries: async (w) => {
    // One delivery to list: the test event's (its receiver refuses the connection; the attempt is recorded).
    const id = await w.fresh.webhook();
    await w.call('POST', `/api/v1/webhooks/${id}/test`);
    return { params: { id } };
  },
  // Needs a delivery that failed after its last scheduled attempt (the retry sweep's work over hours): not
  // arranged here; test/integration/webhooks.test.ts covers the route.
  retryWebhookDelivery: undefined,
  listEvents: async () => ({}),
  // Need an event in the log (the webhook dispatcher's work) and a sandbox key: covered by
  // test/integration/event-log.test.ts and test/integration/sandbox.test.ts.
  getEvent: undefined,
  simulateSandboxResults: undefined,
  listProfileHomeKitOrders: async (w) => ({ params: { id: w.listedProfile } }),
  listProfileAccessLog: async (w) => ({ params: { id: w.listedProfile } }),
} satisfies Record<RouteName, Prober | undefined>;

/** Lists that take `limit`: asked with the default page and with a smaller one. */
const PAGED: ReadonlySet<RouteName> = new Set([
  'listProfileAppointments',
  'listProfileHomeKitOrders',
  'listShipments',
  'listProfileAccessLog',
  'listWebhookDeliveries',
  'listEvents',
]);

export const LIST_LIMIT = 20;

/** Availability over its default week and over the longest range it takes (31 days after from). */
const monthAhead = () => {
  const from = new Date().toISOString().slice(0, 10);
  return { query: `from=${from}&to=${new Date(Date.parse(from) + 31 * 86_400_000).toISOString().slice(0, 10)}` };
};
const VARIANTS: Partial<Record<RouteName, (Probe | undefined)[]>> = { getLocationAvailability: [undefined, monthAhead()] };

/** What an answer returns: a list's items, or an availability's slots. */
const itemsOf = (json: unknown): number | undefined => {
  if (Array.isArray(json)) return json.length;
  const slots = (json as { slots?: unknown } | null)?.slots;
  return Array.isArray(slots) ? slots.length : undefined;
};

function pathOf(name: RouteName, probe: Probe): string {
  const path = routes[name].path.replace(/\{(\w+)\}/g, (_, param: string) => encodeURIComponent(probe.params?.[param] ?? ''));
  return probe.query ? `${path}?${probe.query}` : path;
}

export interface RouteCount {
  route: string;
  calls: string[];
  roundTrips: number;
  itemsRead: number;
  itemsReturned?: number;
  status: number;
}

export async function countRoundTrips(
  world: World,
  counter: ReturnType<typeof countAtSdkEdge>,
  progress: (line: string) => void = () => undefined,
): Promise<{ counts: RouteCount[]; skipped: string[] }> {
  const counts: RouteCount[] = [];
  const skipped: string[] = [];
  for (const [name, route] of routeEntries) {
    const prober: Prober | undefined = PROBES[name];
    if (!prober) {
      skipped.push(`${route.method} ${route.path}`);
      continue;
    }
    progress(`${route.method} ${route.path}`);
    const variants: (Probe | undefined)[] = PAGED.has(name) ? [undefined, { query: `limit=${LIST_LIMIT}` }] : (VARIANTS[name] ?? [undefined]);
    for (const variant of variants) {
      let measured: { answer: Answer; counted: Counted } | undefined;
      for (let run = 0; run < 2; run++) {
        const probe = { ...(await prober(world)), ...variant };
        counter.reset();
        const answer = await world.call(route.method, pathOf(name, probe), probe.body);
        measured = { answer, counted: counter.reset() };
      }
      if (!measured) continue;
      const { answer, counted } = measured;
      counts.push({
        route: `${route.method} ${route.path}${variant?.query ? `?${variant.query}` : ''}`,
        calls: counted.calls,
        roundTrips: counted.calls.length,
        itemsRead: counted.itemsRead,
        itemsReturned: itemsOf(answer.json),
        status: answer.status,
      });
    }
  }
  return { counts, skipped };
}

export function roundTripFigures(counts: readonly RouteCount[]): Figure[] {
  const section = 'DynamoDB per request, every route (warm: key and catalog cached); lists hold 50 items';
  const figures: Figure[] = [];
  for (const count of counts) {
    figures.push({
      section,
      name: `${count.route} round trips`,
      value: count.roundTrips,
      unit: '',
      note: `${count.calls.join(', ') || 'none'}; ${count.itemsRead} items read; answered ${count.status}`,
      hidden: true,
    });
    if (count.itemsReturned !== undefined) {
      figures.push({
        section,
        name: `${count.route} items read / returned`,
        value: count.itemsReturned === 0 ? count.itemsRead : count.itemsRead / count.itemsReturned,
        unit: '×',
        target: { kind: 'max', limit: 1.2 },
        note: `${count.itemsRead} read, ${count.itemsReturned} returned`,
        hidden: true,
      });
    }
  }
  figures.push({
    section,
    name: 'Scans on any route',
    value: counts.reduce((sum, count) => sum + count.calls.filter((call) => call === 'Scan').length, 0),
    unit: '',
    target: { kind: 'max', limit: 0 },
  });
  return figures;
}

/** The per-route table: one line per route, the calls in order. */
export function printRoundTrips(counts: readonly RouteCount[], skipped: readonly string[]): void {
  console.log('\nDynamoDB per request, every route of shared/routes.ts (warm: key lookup and catalog cached; lists hold 50 items)');
  const width = Math.max(...counts.map((count) => count.route.length));
  console.log('  ' + 'route'.padEnd(width), 'trips'.padStart(5), 'read'.padStart(5), 'shown'.padStart(5), 'read/shown'.padStart(10), ' calls in order');
  for (const count of counts) {
    const ratio = count.itemsReturned === undefined ? '' : count.itemsReturned === 0 ? '—' : (count.itemsRead / count.itemsReturned).toFixed(2);
    const verdict = count.itemsReturned === undefined ? '' : count.itemsRead <= 1.2 * Math.max(count.itemsReturned, 1) ? ' ' : '!';
    console.log(
      '  ' + count.route.padEnd(width),
      String(count.roundTrips).padStart(5),
      String(count.itemsRead).padStart(5),
      (count.itemsReturned === undefined ? '' : String(count.itemsReturned)).padStart(5),
      (ratio + verdict).padStart(10),
      '',
      compress(count.calls),
    );
  }
  for (const route of skipped) console.log(`  ${route}: not measured (needs a delivery failed after its last scheduled attempt)`);
}

/** GetItem, Query, Query, Query → GetItem, 3 × Query */
const compress = (calls: readonly string[]): string => {
  const parts: string[] = [];
  for (let i = 0; i < calls.length;) {
    let j = i;
    while (calls[j] === calls[i]) j += 1;
    parts.push(j - i > 1 ? `${j - i} × ${calls[i]}` : (calls[i] ?? ''));
    i = j;
  }
  return parts.join(', ');
};

export const newBarcode = () => `BENCH-${randomUUID().slice(0, 8).toUpperCase()}`;

export { idOf, PROFILE, ADDRESS, slotIn };
