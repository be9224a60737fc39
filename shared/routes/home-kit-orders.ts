/** The rows of the routes table (shared/routes.ts) for home test kit orders. */
import type { Scope } from '../domain/scopes';
import type { Route } from './route';

const KIT: readonly Scope[] = ['home_kit_orders_manage'];

export const createHomeKitOrder = {
  name: 'createHomeKitOrder',
  method: 'POST',
  path: '/api/v1/home-kit-orders',
  handler: 'functions/home-kit-orders/create.ts',
  scopes: KIT,
} as const satisfies Route;
export const getHomeKitOrder = {
  name: 'getHomeKitOrder',
  method: 'GET',
  path: '/api/v1/home-kit-orders/{id}',
  handler: 'functions/home-kit-orders/get.ts',
  scopes: KIT,
} as const satisfies Route;
export const cancelHomeKitOrder = {
  name: 'cancelHomeKitOrder',
  method: 'DELETE',
  path: '/api/v1/home-kit-orders/{id}',
  handler: 'functions/home-kit-orders/cancel.ts',
  scopes: KIT,
} as const satisfies Route;
export const attachHomeKitOrderPanels = {
  name: 'attachHomeKitOrderPanels',
  method: 'POST',
  path: '/api/v1/home-kit-orders/{id}/panels',
  handler: 'functions/home-kit-orders/attach-panels.ts',
  scopes: KIT,
} as const satisfies Route;
export const attachHomeKitOrderBiomarkers = {
  name: 'attachHomeKitOrderBiomarkers',
  method: 'POST',
  path: '/api/v1/home-kit-orders/{id}/biomarkers',
  handler: 'functions/home-kit-orders/attach-biomarkers.ts',
  scopes: KIT,
} as const satisfies Route;
export const dispatchHomeKitOrder = {
  name: 'dispatchHomeKitOrder',
  method: 'POST',
  path: '/api/v1/home-kit-orders/{id}/dispatch',
  handler: 'functions/home-kit-orders/dispatch.ts',
  scopes: KIT,
} as const satisfies Route;
export const activateHomeKitOrder = {
  name: 'activateHomeKitOrder',
  method: 'POST',
  path: '/api/v1/home-kit-orders/{id}/activate',
  handler: 'functions/home-kit-orders/activate.ts',
  scopes: KIT,
} as const satisfies Route;
export const listHomeKitOrderHistory = {
  name: 'listHomeKitOrderHistory',
  method: 'GET',
  path: '/api/v1/home-kit-orders/{id}/history',
  handler: 'functions/home-kit-orders/history.ts',
  scopes: KIT,
} as const satisfies Route;
// Ours (issue #50): the requisition form of the kit's sample, PDF (docs/orders.md).
export const getHomeKitOrderRequisition = {
  name: 'getHomeKitOrderRequisition',
  method: 'GET',
  path: '/api/v1/home-kit-orders/{id}/requisition',
  handler: 'functions/home-kit-orders/requisition.ts',
  scopes: KIT,
} as const satisfies Route;
export const listProfileHomeKitOrders = {
  name: 'listProfileHomeKitOrders',
  method: 'GET',
  path: '/api/v1/profiles/{id}/home-kit-orders',
  handler: 'functions/profiles/list-home-kit-orders.ts',
  scopes: KIT,
} as const satisfies Route;
