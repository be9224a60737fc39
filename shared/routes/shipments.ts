/** The rows of the routes table (shared/routes.ts) for shipments. */
import type { Route } from './route';

export const createShipment = {
  name: 'createShipment',
  method: 'POST',
  path: '/api/v1/shipments',
  handler: 'functions/shipments/create.ts',
  scopes: ['SHIPMENTS_MANAGE'],
} as const satisfies Route;
export const listShipments = {
  name: 'listShipments',
  method: 'GET',
  path: '/api/v1/shipments',
  handler: 'functions/shipments/list.ts',
  scopes: ['SHIPMENTS_MANAGE'],
} as const satisfies Route;
export const getShipment = {
  name: 'getShipment',
  method: 'GET',
  path: '/api/v1/shipments/{id}',
  handler: 'functions/shipments/get.ts',
  scopes: ['SHIPMENTS_MANAGE'],
} as const satisfies Route;
export const updateShipment = {
  name: 'updateShipment',
  method: 'PATCH',
  path: '/api/v1/shipments/{id}',
  handler: 'functions/shipments/update.ts',
  scopes: ['SHIPMENTS_MANAGE'],
} as const satisfies Route;
export const cancelShipment = {
  name: 'cancelShipment',
  method: 'DELETE',
  path: '/api/v1/shipments/{id}',
  handler: 'functions/shipments/cancel.ts',
  scopes: ['SHIPMENTS_MANAGE'],
} as const satisfies Route;
export const listShipmentHistory = {
  name: 'listShipmentHistory',
  method: 'GET',
  path: '/api/v1/shipments/{id}/history',
  handler: 'functions/shipments/history.ts',
  scopes: ['SHIPMENTS_MANAGE'],
} as const satisfies Route;
export const updateShipmentStatus = {
  name: 'updateShipmentStatus',
  method: 'POST',
  path: '/api/v1/shipments/{id}/status',
  handler: 'functions/shipments/status.ts',
  scopes: ['SHIPMENTS_TRACK'],
} as const satisfies Route;
