/** What a client sends to order a home kit (with its delivery address) and to dispatch one. */
import * as v from 'valibot';
import type { DeliveryAddress as StoredDeliveryAddress } from '../../domain/address';
import { isJsonObject, parseNested } from '../../http/validation';
import { text, uuid } from '../fields';
import { InlineAddress, LocationReference } from '../home-kit-orders';

/** Exactly one shape: a location reference, or an inline address — never both mixed. */
export const DeliveryAddressSchema = v.pipe(
  v.unknown(),
  // docs/openapi.json shows DeliveryAddress (../home-kit-orders.ts); the parsing below gives the clearer messages.
  v.metadata({ $ref: '#/components/schemas/DeliveryAddress' }),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const value = dataset.value;
    if (!isJsonObject(value)) {
      addIssue({ message: 'delivery_address must be an object: {location_id} or an inline address' });
      return NEVER;
    }
    if ('location_id' in value && Object.keys(value).some((key) => key !== 'location_id')) {
      addIssue({ message: 'delivery_address must be either {location_id} or an inline address, not both' });
      return NEVER;
    }
    const parsed =
      'location_id' in value
        ? parseNested('delivery_address', LocationReference, value, addIssue)
        : parseNested('delivery_address', InlineAddress, value, addIssue);
    return (parsed ?? NEVER) as StoredDeliveryAddress;
  }),
);

export const CreateHomeKitOrderBody = v.strictObject({
  profile_id: uuid,
  delivery_address: DeliveryAddressSchema,
});

export const DispatchBody = v.strictObject({
  tracking_number: v.pipe(v.string(), v.regex(/^[A-Za-z0-9-]{4,64}$/, 'must be 4–64 letters, digits or hyphens')),
  carrier: v.optional(text(50)),
});
