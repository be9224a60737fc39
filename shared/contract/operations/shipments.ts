/** What the shipment routes answer, their status history included. Joined with the other resources in shared/contract/operations.ts. */
import type { RouteName } from '../../routes';
import { ShipmentHistoryEntry } from '../../schemas/history';
import { CreatedShipment, Shipment, ShipmentWithAppointments } from '../../schemas/shipments';
import * as examples from '../examples';
import { CHANGED_MEANWHILE, KEPT_CHANGING, list, type OperationDoc, PAGE } from '../operation-doc';

export const shipmentsOperations = {
  createShipment: {
    tag: 'Shipments',
    summary: 'Book a courier pickup',
    description:
      'Books a shipment from a location to the lab: pickup_date a weekday, today or later and at most 90 days ahead, no same-day ' +
      'pickup after 16:00 Europe/Berlin; a window within 09:00–17:00 of at least 2 hours. The id is a random reference.',
    responses: { 201: { description: 'The shipment, without timestamps.', schema: CreatedShipment, example: examples.createdShipment } },
    errors: {
      404: 'location not found or inactive',
      409: 'no courier serves this location',
      503: 'no free shipment reference was found (practically never): retry the request',
    },
    requestExample: examples.createShipmentBody,
  },
  listShipments: {
    tag: 'Shipments',
    summary: 'List shipments',
    description: 'Shipments of the locations accessible to the key, newest first, paged.',
    responses: { 200: { description: 'A page of shipments.', schema: list(Shipment), ...PAGE } },
  },
  listShipmentHistory: {
    tag: 'Shipments',
    summary: "List a shipment's status history",
    description:
      'Every status change, oldest first, creation first: the new status, the one before, when, the source (api, courier, lab, ' +
      'system), the API key id that made it and the reason where there is one. Paged like the other lists. Each entry has its ' +
      'status-change event, written in the same transaction (docs/events/). Resources created before the history existed ' +
      'answer the changes made since.',
    responses: { 200: { description: 'A page of history entries.', schema: list(ShipmentHistoryEntry), ...PAGE } },
    errors: { 404: 'shipment not found' },
  },
  getShipment: {
    tag: 'Shipments',
    summary: 'Get a shipment',
    description: 'The shipment (the id is its reference) and the appointments it carries that the key may see.',
    responses: { 200: { description: 'The shipment.', schema: ShipmentWithAppointments } },
    errors: { 404: 'shipment not found' },
  },
  updateShipment: {
    tag: 'Shipments',
    summary: 'Change the pickup window',
    description: 'Modifies pickup_date, pickup_time_from and/or pickup_time_till before pickup; the create-time rules apply to the result.',
    responses: { 200: { description: 'The updated shipment including created_at and updated_at.', schema: Shipment } },
    errors: { 404: 'shipment not found', 409: 'shipment already picked up or cancelled; or ' + CHANGED_MEANWHILE },
  },
  cancelShipment: {
    tag: 'Shipments',
    summary: 'Cancel a shipment',
    description: 'Cancels a shipment before pickup.',
    responses: { 200: { description: 'The shipment with status cancelled.', schema: Shipment } },
    errors: { 404: 'shipment not found', 409: 'already picked up, delivered or cancelled', 503: KEPT_CHANGING },
  },
  updateShipmentStatus: {
    tag: 'Shipments',
    summary: 'Courier status update',
    description:
      "The logistics provider reports a shipment's progress (shipped, in_transit, delivered, fault). An update older than the last one, or one that changes nothing, answers the shipment unchanged.",
    responses: { 200: { description: 'The shipment.', schema: Shipment } },
    errors: { 404: 'shipment not found', 409: 'a transition the shipment cannot make; or ' + CHANGED_MEANWHILE },
  },
} as const satisfies Partial<Record<RouteName, OperationDoc>>;
