/** The EventBridge `source` of every event this service publishes. */
export const EVENT_SOURCE = 'lab-api';
/**
 * The source of the events a sandbox key's requests cause (docs/sandbox.md): the lab's rule matches
 * EVENT_SOURCE only, so no sandbox order ever reaches the lab's queue; the webhook dispatcher takes both.
 */
export const SANDBOX_EVENT_SOURCE = 'lab-api.sandbox';
