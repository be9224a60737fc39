/**
 * Every use case that changes a status ends here: the transition writer (shared/store/transitions.ts)
 * writes state, history and outbox in one transaction, then the events are published at once (a failed
 * publish is left to the outbox relay; the change stands).
 */
import { publishCommitted } from './publish-events';
import { type Changes, writeChanges } from '../store/transitions';

export async function commit(changes: Changes): Promise<void> {
  await publishCommitted(await writeChanges(changes));
}
