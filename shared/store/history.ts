/**
 * The status history of a resource, written only by the transition writer (shared/store/transitions.ts).
 *
 * Access patterns:
 * - a page of a resource's history, oldest first ... Query  PK=HISTORY#<resource PK>, SK begins_with ENTRY#
 */
import type { HistoryEntry } from '../domain/lifecycle';
import { historyOf, type ItemKey } from './keys';
import { type Page, type PageRequest, pageOfPartition } from './pages';

/** A page of the history of a resource whose statuses are S (only its lifecycle's writer wrote them). */
export function pageHistory<S extends string>(resource: ItemKey, page: PageRequest): Promise<Page<HistoryEntry<S>>> {
  return pageOfPartition<HistoryEntry<S>>(historyOf(resource), page);
}
