/**
 * THE table of endpoints. The local server, the CDK stack and the OpenAPI document are generated from it;
 * nothing else lists routes. A new endpoint is one row (in shared/routes/, by resource, as the operations of
 * shared/contract/operations/ are), one line here, one handler file, one schema, tests.
 *
 * scopes: any one of them suffices (the spec's "or"), unless `allScopes` says every one is needed (a
 * person's export holds their profile and their results). An empty list means the route needs no API key.
 * handler: the module (relative to the repository root) whose `handler` export the Lambda runs.
 *
 * A handler imports its own row from shared/routes/, never this table: a function's bundle then holds one
 * row, not sixty (issue #33; test/infra/bundles.test.ts).
 */
import type { Route } from './routes/route';
import * as service from './routes/service';
import * as profiles from './routes/profiles';
import * as locations from './routes/locations';
import * as appointments from './routes/appointments';
import * as results from './routes/results';
import * as orders from './routes/orders';
import * as shipments from './routes/shipments';
import * as homeKitOrders from './routes/home-kit-orders';
import * as webhooks from './routes/webhooks';
import * as lab from './routes/lab';
import * as unsubscribe from './routes/unsubscribe';
import * as patientPage from './routes/patient-page';

export type { HttpMethod, Route } from './routes/route';

// The order is the OpenAPI document's and the local server's.
export const routes = {
  health: service.health,
  getOpenApiDocument: service.getOpenApiDocument,
  getDocsPage: service.getDocsPage,
  getDocsAsset: service.getDocsAsset,
  createProfile: profiles.createProfile,
  getProfile: profiles.getProfile,
  updateProfile: profiles.updateProfile,
  eraseProfile: profiles.eraseProfile,
  exportProfile: profiles.exportProfile,
  listLocations: locations.listLocations,
  getLocation: locations.getLocation,
  updateLocation: locations.updateLocation,
  getLocationAvailability: locations.getLocationAvailability,
  listPanels: locations.listPanels,
  listBiomarkers: locations.listBiomarkers,
  createAppointment: appointments.createAppointment,
  getAppointment: appointments.getAppointment,
  updateAppointment: appointments.updateAppointment,
  attachAppointmentPanels: appointments.attachAppointmentPanels,
  attachAppointmentBiomarkers: appointments.attachAppointmentBiomarkers,
  confirmAppointment: appointments.confirmAppointment,
  cancelAppointment: appointments.cancelAppointment,
  pickupAppointments: appointments.pickupAppointments,
  listProfileAppointments: appointments.listProfileAppointments,
  listAppointmentHistory: appointments.listAppointmentHistory,
  getAppointmentOrderFhir: orders.getAppointmentOrderFhir,
  getAppointmentRequisition: appointments.getAppointmentRequisition,
  createPatientLink: appointments.createPatientLink,
  getAppointmentResults: results.getAppointmentResults,
  acknowledgeAppointmentResults: results.acknowledgeAppointmentResults,
  getAppointmentResultsHistory: results.getAppointmentResultsHistory,
  getAppointmentResultsFhir: results.getAppointmentResultsFhir,
  getAppointmentResultsReport: results.getAppointmentResultsReport,
  getDocument: results.getDocument,
  createShipment: shipments.createShipment,
  listShipments: shipments.listShipments,
  getShipment: shipments.getShipment,
  updateShipment: shipments.updateShipment,
  cancelShipment: shipments.cancelShipment,
  listShipmentHistory: shipments.listShipmentHistory,
  updateShipmentStatus: shipments.updateShipmentStatus,
  createHomeKitOrder: homeKitOrders.createHomeKitOrder,
  getHomeKitOrder: homeKitOrders.getHomeKitOrder,
  cancelHomeKitOrder: homeKitOrders.cancelHomeKitOrder,
  attachHomeKitOrderPanels: homeKitOrders.attachHomeKitOrderPanels,
  attachHomeKitOrderBiomarkers: homeKitOrders.attachHomeKitOrderBiomarkers,
  dispatchHomeKitOrder: homeKitOrders.dispatchHomeKitOrder,
  activateHomeKitOrder: homeKitOrders.activateHomeKitOrder,
  listHomeKitOrderHistory: homeKitOrders.listHomeKitOrderHistory,
  getHomeKitOrderRequisition: homeKitOrders.getHomeKitOrderRequisition,
  createWebhook: webhooks.createWebhook,
  listWebhooks: webhooks.listWebhooks,
  getWebhook: webhooks.getWebhook,
  updateWebhook: webhooks.updateWebhook,
  deleteWebhook: webhooks.deleteWebhook,
  rotateWebhookSecret: webhooks.rotateWebhookSecret,
  sendTestWebhook: webhooks.sendTestWebhook,
  listWebhookDeliveries: webhooks.listWebhookDeliveries,
  retryWebhookDelivery: webhooks.retryWebhookDelivery,
  listEvents: webhooks.listEvents,
  getEvent: webhooks.getEvent,
  simulateSandboxResults: results.simulateSandboxResults,
  listProfileHomeKitOrders: homeKitOrders.listProfileHomeKitOrders,
  listProfileAccessLog: profiles.listProfileAccessLog,
  listProfileMessages: profiles.listProfileMessages,
  listUnmatchedResults: lab.listUnmatchedResults,
  matchUnmatchedResult: lab.matchUnmatchedResult,
  discardUnmatchedResult: lab.discardUnmatchedResult,
  getUnsubscribePage: unsubscribe.getUnsubscribePage,
  unsubscribe: unsubscribe.unsubscribe,
  getPatientPage: patientPage.getPatientPage,
  reschedulePatientAppointment: patientPage.reschedulePatientAppointment,
  cancelPatientAppointment: patientPage.cancelPatientAppointment,
} as const satisfies { [N in string]: Route & { name: N } };

export type RouteName = keyof typeof routes;

export const routeEntries = Object.entries(routes) as [RouteName, Route][];
