/**
 * What every status change records, whatever the lifecycle (appointment, home kit order, shipment):
 * who made it and why. The history endpoints answer these entries; the status-change events carry the
 * source.
 */
export const TRANSITION_SOURCES = ['api', 'courier', 'lab', 'system', 'patient'] as const;
export type TransitionSource = (typeof TRANSITION_SOURCES)[number];

/** Who made a change: a client's API key (by its id, never its name or plaintext), a courier, the lab. */
export interface Actor {
  source: TransitionSource;
  /** The API key id for `api` and `courier` (the courier integration calls with its own key); else null (`patient`: the patient's link, issue #53). */
  key_id: string | null;
}

export const apiActor = (keyId: string): Actor => ({ source: 'api', key_id: keyId });
export const courierActor = (keyId: string): Actor => ({ source: 'courier', key_id: keyId });
export const LAB: Actor = { source: 'lab', key_id: null };
/** The patient, from the page of their appointment's link (issue #53, docs/patient-page.md): no key. */
export const PATIENT: Actor = { source: 'patient', key_id: null };

/** One entry of a resource's status history, oldest first; creation is the first. */
export interface HistoryEntry<S extends string = string> {
  status: S;
  from_status: S | null;
  at: string;
  source: TransitionSource;
  actor: string | null;
  reason: string | null;
}
