/** The EventBridge `source` of every event this service publishes. */
export const EVENT_SOURCE = 'lab-api';
