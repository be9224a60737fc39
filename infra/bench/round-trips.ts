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
import { type RouteName, routeEntries, routes } from '../../shared/routes';
import { type Answer, idOf } from './api-client';
import type { Figure } from './report';
import { ADDRESS, PROBES, PROFILE, type Probe, type Prober, slotIn, type World } from './probes';

export type { Probe, World } from './probes';
export { PROBES } from './probes';

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

/** Lists that take `limit`: asked with the default page and with a smaller one. */
const PAGED: ReadonlySet<RouteName> = new Set([
  'listProfileAppointments',
  'listProfileHomeKitOrders',
  'listShipments',
  'listProfileAccessLog',
  'listProfileMessages',
  'listWebhookDeliveries',
  'listEvents',
  'listUnmatchedResults',
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

/** Items a list may read beyond those it returns (issue #33). */
const LOOK_AHEAD = 1;

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
      // Issue #33: a list reads no more items than it returns plus one (a page's look-ahead, or the parent
      // item its access is checked on), whatever its length.
      figures.push({
        section,
        name: `${count.route} items read beyond those returned`,
        value: count.itemsRead - count.itemsReturned,
        unit: '',
        target: { kind: 'max', limit: LOOK_AHEAD },
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
    const verdict = count.itemsReturned === undefined ? '' : count.itemsRead <= count.itemsReturned + LOOK_AHEAD ? ' ' : '!';
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
