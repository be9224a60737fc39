/**
 * THE way a status changes. Every transition of an appointment, a home kit order or a shipment (creation
 * included) is written by `writeChanges`, in ONE transaction:
 *   - the new state, conditional on the status it was decided from (and on any further rule it re-checks),
 *   - the next entry of the resource's history (`keys.historyEntry`, numbered by `history_seq`),
 *   - its status-change event, in the outbox entry of the transaction (with any other event it announces).
 * So a change, its history entry and its event exist together or not at all, and a request that loses a
 * race writes none of them.
 *
 * A lifecycle (shared/store/appointments/records.ts, home-kit-orders.ts, shipments.ts) tells the writer where
 * its state lives and how its event reads; the writer knows nothing else about it.
 */
import type { Actor, HistoryEntry } from '../domain/lifecycle';
import type { DomainEvent } from '../events/publisher';
import { tableName } from './client';
import type { ItemKey } from './keys';
import * as keys from './keys/items';
import { outboxPut } from './outbox';
import { type NamedItem, named, transactWrite } from './transactions';
import { setAttributes } from './update-expression';

/** What the writer needs of a record: its status and how many history entries it has. */
export interface Stateful {
  status: string;
  /** The number of history entries written; absent on records created before the history existed. */
  history_seq?: number;
}

export interface Lifecycle<R extends Stateful> {
  key(record: R): ItemKey;
  /** The whole item of a new record: its key, its index keys and the record. */
  item(record: R): Record<string, unknown>;
  /** The status-change event of a transition (ids and statuses only). */
  event(change: { before: R | null; after: R; actor: Actor; at: string }): DomainEvent;
}

/** A further condition on the state item: a rule the change was decided on, re-checked at the write. */
export interface Condition {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

export interface Transition<R extends Stateful> {
  lifecycle: Lifecycle<R>;
  /** The record as read, whose status the change was decided from; null to create it. */
  before: R | null;
  /** The record after the change, its new status included. */
  after: R;
  actor: Actor;
  /** When it happened: the request's time, or the time a courier reported. */
  at: string;
  reason?: string | null;
  condition?: Condition;
  /** The name its state item's failure is read by (TransactionCancelled.failed); default 'state'. */
  name?: string;
}

/** Items one transition adds to a transaction: state and history entry (its event goes to the outbox). */
export const ITEMS_PER_TRANSITION = 2;

const changedAttributes = (before: object, after: object) =>
  Object.fromEntries(Object.entries(after).filter(([name, value]) => JSON.stringify(value) !== JSON.stringify((before as Record<string, unknown>)[name])));

/** The record as a transition leaves it: its new state, one more history entry. */
export const recorded = <R extends Stateful>(before: R | null, after: R): R => ({ ...after, history_seq: (before?.history_seq ?? 0) + 1 });

/**
 * Joins the placeholder maps (ExpressionAttributeNames or ExpressionAttributeValues) of the parts of one
 * expression. Two parts using one placeholder name would silently lose one of the values (a condition's
 * `:from` replacing the status check's), so a collision throws instead: a bug of ours, found by any test
 * that runs the write.
 */
export function joinPlaceholders<V>(...maps: (Record<string, V> | undefined)[]): Record<string, V> {
  const joined: Record<string, V> = {};
  for (const map of maps) {
    for (const [name, value] of Object.entries(map ?? {})) {
      if (Object.hasOwn(joined, name)) throw new Error(`Placeholder ${name} is used twice in one expression`);
      joined[name] = value;
    }
  }
  return joined;
}

function stateItem<R extends Stateful>(t: Transition<R>, after: R): NamedItem {
  const name = t.name ?? 'state';
  if (!t.before) {
    return named(name, {
      Put: { TableName: tableName, Item: t.lifecycle.item(after), ConditionExpression: 'attribute_not_exists(PK)' },
    });
  }
  const update = setAttributes(changedAttributes(t.before, after));
  return named(name, {
    Update: {
      TableName: tableName,
      Key: t.lifecycle.key(t.before),
      ...update,
      ConditionExpression: ['#status = :from', ...(t.condition ? [`(${t.condition.expression})`] : [])].join(' AND '),
      ExpressionAttributeNames: joinPlaceholders(update.ExpressionAttributeNames, { '#status': 'status' }, t.condition?.names),
      ExpressionAttributeValues: joinPlaceholders(update.ExpressionAttributeValues, { ':from': t.before.status }, t.condition?.values),
    },
  });
}

/** The state item and history entry of one transition, and its event. */
export function transitionItems<R extends Stateful>(t: Transition<R>): { items: NamedItem[]; event: DomainEvent } {
  const after = recorded(t.before, t.after);
  const seq = after.history_seq as number;
  const entry: HistoryEntry = {
    status: t.after.status,
    from_status: t.before?.status ?? null,
    at: t.at,
    source: t.actor.source,
    actor: t.actor.key_id,
    reason: t.reason ?? null,
  };
  const history = named(`${t.name ?? 'state'}.history`, {
    Put: {
      TableName: tableName,
      // A racing transition from the same state writes the same entry number: only one can exist.
      Item: { ...keys.historyEntry(t.lifecycle.key(t.after), seq), ...entry },
      ConditionExpression: 'attribute_not_exists(PK)',
    },
  });
  return { items: [stateItem(t, after), history], event: t.lifecycle.event(t) };
}

export interface Changes {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- transitions of several lifecycles travel together
  transitions: Transition<any>[];
  /** Other items of the same transaction (a barcode claim, a link, a condition check). */
  items?: NamedItem[];
  /** Events other than the status changes that the transaction announces (e.g. LabOrderRequested). */
  events?: DomainEvent[];
  /** When the transaction is written (indexes its outbox entry for the relay). */
  writtenAt: string;
}

/**
 * Writes the changes in one transaction and answers the events to publish once it committed. Throws
 * TransactionCancelled when a condition failed: the caller reads the winner's state and explains.
 */
export async function writeChanges(changes: Changes): Promise<DomainEvent[]> {
  const written = changes.transitions.map((t) => transitionItems(t));
  const events = [...written.map((w) => w.event), ...(changes.events ?? [])];
  await transactWrite([...written.flatMap((w) => w.items), ...(changes.items ?? []), ...(events.length > 0 ? [outboxPut(events, changes.writtenAt)] : [])]);
  return events;
}
