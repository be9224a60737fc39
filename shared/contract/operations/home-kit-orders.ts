/** What the home kit order routes answer, a profile's list and the status history included. Joined with the other resources in shared/contract/operations.ts. */
import type { RouteName } from '../../routes';
import { HomeKitOrderHistoryEntry } from '../../schemas/history';
import { HomeKitOrder } from '../../schemas/home-kit-orders';
import * as examples from '../examples';
import {
  CHANGE_NOT_SHOWN,
  CHANGED_MEANWHILE,
  KEPT_CHANGING,
  list,
  type OperationDoc,
  PAGE,
  READ_NOT_RECORDED,
  REQUISITION_PDF,
  UNCOLLECTABLE,
} from '../operation-doc';

export const homeKitOrdersOperations = {
  createHomeKitOrder: {
    tag: 'Home kit orders',
    summary: 'Order a home kit',
    description: 'Orders a home test kit for a profile, delivered to a test location or an inline address (exactly one of the two).',
    responses: {
      201: { description: 'The order: status pending, updated_at null, no tests yet.', schema: HomeKitOrder },
    },
    errors: { 404: 'profile, or the delivery location, not found', 409: 'the profile was erased', 503: CHANGE_NOT_SHOWN },
    requestExample: examples.createHomeKitOrderBody,
  },
  listHomeKitOrderHistory: {
    tag: 'Home kit orders',
    summary: "List a home kit order's status history",
    description:
      'Every status change, oldest first, creation first: the new status, the one before, when, the source (api, courier, lab, ' +
      'system), the API key id that made it and the reason where there is one. Paged like the other lists. Each entry has its ' +
      'status-change event, written in the same transaction (docs/events/). Resources created before the history existed ' +
      'answer the changes made since.',
    responses: { 200: { description: 'A page of history entries.', schema: list(HomeKitOrderHistoryEntry), ...PAGE } },
    errors: { 404: 'order not found', 503: READ_NOT_RECORDED },
  },
  getHomeKitOrder: {
    tag: 'Home kit orders',
    summary: 'Get a home kit order',
    description: 'The order with its embedded profile and attached tests.',
    responses: { 200: { description: 'The order.', schema: HomeKitOrder } },
    errors: { 404: 'order not found', 503: READ_NOT_RECORDED },
  },
  cancelHomeKitOrder: {
    tag: 'Home kit orders',
    summary: 'Cancel a home kit order',
    description: 'Sets the status of a pending or dispatched order to cancelled.',
    responses: { 200: { description: 'The cancelled order with embedded profile.', schema: HomeKitOrder } },
    errors: { 404: 'order not found', 409: 'the order is activated or already cancelled', 503: CHANGE_NOT_SHOWN + '; or ' + KEPT_CHANGING },
  },
  attachHomeKitOrderPanels: {
    tag: 'Home kit orders',
    summary: 'Attach panels to a home kit order',
    description: 'Adds panels while the order is pending (at most 90 tests per kit).',
    responses: { 200: { description: 'The order.', schema: HomeKitOrder } },
    errors: {
      400: UNCOLLECTABLE('panel', 'kit'),
      404: 'order or one or more panels not found',
      409: 'the order is no longer pending; or ' + CHANGED_MEANWHILE,
      503: CHANGE_NOT_SHOWN,
    },
  },
  attachHomeKitOrderBiomarkers: {
    tag: 'Home kit orders',
    summary: 'Attach individual biomarkers to a home kit order',
    description: 'Adds biomarkers while the order is pending (at most 90 tests per kit).',
    responses: { 200: { description: 'The order.', schema: HomeKitOrder } },
    errors: {
      400: UNCOLLECTABLE('biomarker', 'kit'),
      404: 'order or one or more biomarkers not found',
      409: 'the order is no longer pending; or ' + CHANGED_MEANWHILE,
      503: CHANGE_NOT_SHOWN,
    },
  },
  dispatchHomeKitOrder: {
    tag: 'Home kit orders',
    summary: 'Dispatch a home kit',
    description: 'Records that the kit left the warehouse, with its tracking number.',
    responses: { 200: { description: 'The dispatched order.', schema: HomeKitOrder } },
    errors: { 404: 'order not found', 409: 'the order is not pending, or has no tests', 503: CHANGE_NOT_SHOWN + '; or ' + KEPT_CHANGING },
  },
  activateHomeKitOrder: {
    tag: 'Home kit orders',
    summary: 'Activate a home kit',
    description:
      "The person registers the kit's sample barcode: the order becomes activated and an appointment (test_method home, status blood_drawn) carries its tests to the lab. Activating again with the same barcode is a safe retry.",
    responses: { 200: { description: 'The activated order, with appointment_id.', schema: HomeKitOrder } },
    errors: {
      404: 'order not found',
      409: 'the kit is not dispatched, is activated with another barcode, or the barcode is used by another sample; or ' + CHANGED_MEANWHILE,
      503: CHANGE_NOT_SHOWN,
    },
  },
  listProfileHomeKitOrders: {
    tag: 'Home kit orders',
    summary: "List a profile's home kit orders",
    description: 'Newest first, paged.',
    responses: { 200: { description: 'A page of orders.', schema: list(HomeKitOrder), ...PAGE } },
    errors: { 404: 'profile not found', 503: READ_NOT_RECORDED },
  },
  getHomeKitOrderRequisition: {
    tag: 'Home kit orders',
    summary: 'Download the requisition form of the kit (PDF)',
    description:
      "Once the kit is activated: the requisition form of its sample, as GET /api/v1/appointments/{id}/requisition answers it for the kit's " +
      'appointment (appointment_id); its place reads Home test kit and its collection time is the activation. docs/orders.md.',
    responses: { 200: REQUISITION_PDF },
    errors: {
      404: 'order not found',
      409: 'no requisition: the kit is not activated (or the order was cancelled), or it was activated before requisitions existed',
      503: READ_NOT_RECORDED,
    },
  },
} as const satisfies Partial<Record<RouteName, OperationDoc>>;
