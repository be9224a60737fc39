import { createHash } from 'node:crypto';

/**
 * A delivery's id: a UUIDv7 whose time is the event's and whose other bits come from the subscription and
 * the event ids. The log sorts by it (newest first), and the same event for the same subscription always
 * gets the same id, so a duplicate event (EventBridge and SQS deliver at least once) is refused by the
 * create's condition.
 */
export function deliveryId(webhookId: string, eventId: string, occurredAt: string): string {
  const bytes = createHash('sha256').update(`${webhookId}/${eventId}`).digest().subarray(0, 16);
  const ms = BigInt(Date.parse(occurredAt));
  for (let i = 0; i < 6; i += 1) bytes[i] = Number((ms >> BigInt(8 * (5 - i))) & 0xffn);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x70; // version 7
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80; // RFC 9562 variant
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
