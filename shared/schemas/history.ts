/** A status history entry as the history routes answer it: what changed, when, by whom and why. */
import * as v from 'valibot';
import { APPOINTMENT_STATUSES } from '../domain/appointment';
import { HOME_KIT_ORDER_STATUSES } from '../domain/home-kit-order';
import { type HistoryEntry, TRANSITION_SOURCES } from '../domain/lifecycle';
import { SHIPMENT_STATUSES } from '../domain/shipment';
import { instant } from './fields';

const entry = <S extends readonly [string, ...string[]]>(statuses: S) =>
  v.object({
    status: v.picklist(statuses),
    from_status: v.pipe(v.nullable(v.picklist(statuses)), v.description('null for the first entry: the creation.')),
    at: v.pipe(instant, v.description('When it happened: the request time, or the time the courier reported.')),
    source: v.pipe(
      v.picklist(TRANSITION_SOURCES),
      v.description(
        "api: a client key; courier: the courier integration; lab; system; patient: the patient on their appointment's page (its link; actor null).",
      ),
    ),
    actor: v.pipe(v.nullable(v.string()), v.description('The id of the API key that made the change (never its name); null for the lab.')),
    reason: v.pipe(v.nullable(v.string()), v.description('Why, when the change says: the cancellation reason, or "home kit activated".')),
  });

export const AppointmentHistoryEntry = entry(APPOINTMENT_STATUSES);
export const HomeKitOrderHistoryEntry = entry(HOME_KIT_ORDER_STATUSES);
export const ShipmentHistoryEntry = entry(SHIPMENT_STATUSES);

/** The stored entry, field by field (nothing else of the item is answered). */
export const toHistoryEntry = <S extends string>(stored: HistoryEntry<S>): HistoryEntry<S> => ({
  status: stored.status,
  from_status: stored.from_status,
  at: stored.at,
  source: stored.source,
  actor: stored.actor,
  reason: stored.reason,
});
