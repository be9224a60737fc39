import { derivedUuid } from '../derived-uuid';

/**
 * A delivery's id: a UUIDv7 whose time is the event's and whose other bits come from the subscription and
 * the event ids. The log sorts by it (newest first), and the same event for the same subscription always
 * gets the same id, so a duplicate event (EventBridge and SQS deliver at least once) is refused by the
 * create's condition.
 */
export const deliveryId = (webhookId: string, eventId: string, occurredAt: string): string =>
  derivedUuid([webhookId, eventId], { timeMs: Date.parse(occurredAt) });
