/**
 * A status change decided on a resource as read and written on the condition that it is still as read
 * (shared/store/transitions.ts). When a racing request changed the resource first, the condition fails;
 * answering 409 then would be wrong whenever the new state still allows the change (a kit dispatched
 * meanwhile can still be cancelled; an appointment a PATCH moved can still be cancelled): a serial order of
 * the same requests would have applied it. So the loser reads the resource again and decides again from
 * what it reads: the conflict the new state calls for, or the change written again on the new state. A
 * resource that keeps changing under it (MAX_DECISIONS writes lost in a row) answers 503: nothing about the
 * request is wrong, and the same request a moment later can succeed; a 409 would read as "not allowed".
 */
import { Unavailable } from '../errors';
import { TransactionCancelled } from '../store/transactions';

/** Writes tried on successive reads before giving up: enough for a race of a handful of writers on one resource. */
export const MAX_DECISIONS = 5;

export const keptChanging = (what: string) => `The ${what} kept changing while this request was processed; retry it`;

export interface Decision<R, T> {
  /** The resource as first read, already checked (access and rule) by the caller. */
  read: R;
  /** Reads the resource again, consistently, after a lost write. */
  reread(): Promise<R>;
  /** Throws the conflict a state calls for when it does not allow the change. */
  assertAllowed(current: R): void;
  /** Decides the change from `current` and writes it on the condition that it is still as read. */
  write(current: R): Promise<T>;
  /** What keeps changing, for the 503's message ("appointment", "order", "shipment"). */
  what: string;
}

export async function decideAgainOnRace<R, T>({ read, reread, assertAllowed, write, what }: Decision<R, T>): Promise<T> {
  let current = read;
  for (let decision = 1; ; decision += 1) {
    try {
      return await write(current);
    } catch (error) {
      if (!(error instanceof TransactionCancelled)) throw error;
      current = await reread();
      assertAllowed(current);
      if (decision >= MAX_DECISIONS) throw new Unavailable(keptChanging(what));
    }
  }
}
