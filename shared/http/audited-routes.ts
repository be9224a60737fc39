/**
 * Which routes show a person's data, and so record each read in the access log (docs/privacy.md "Privacy",
 * shared/http/audit.ts). The one list of them: the IAM right to put access-log entries goes to exactly these
 * functions (infra/api-function.ts), and any other route's read collector refuses a read (a 500 in the
 * route's first test), so a route that starts showing a person's data cannot be left out of either. Types
 * are its only import: the CDK app reads it too.
 *
 * A change that answers the person is a read as much as a GET is: a key that may only manage kits sees
 * name, contacts, birth date and delivery address in the answer to attaching a panel. So is creating an
 * appointment or a kit order: the caller sent a profile id and gets the stored profile back. Two answers
 * with a profile are no read: POST /profiles answers what its caller has just sent, and the new id; an
 * erasure answers the profile once every identifier is null (the language and dates are all that stay).
 */
import type { ReadAudit } from '../auth/access';
import type { RouteName } from '../routes';

export const AUDITED_ROUTES: ReadonlySet<RouteName> = new Set<RouteName>([
  // Reads.
  'getProfile',
  'exportProfile',
  'listProfileAppointments',
  'listProfileHomeKitOrders',
  // The subjects say what the person was told (an appointment's day and place, results ready): their data.
  'listProfileMessages',
  'getAppointment',
  'listAppointmentHistory',
  'getAppointmentResults',
  'getAppointmentResultsHistory',
  'acknowledgeAppointmentResults',
  'simulateSandboxResults',
  'getAppointmentResultsFhir',
  'getAppointmentOrderFhir',
  'getAppointmentResultsReport',
  'getAppointmentRequisition',
  'getDocument',
  'getHomeKitOrder',
  'listHomeKitOrderHistory',
  'getHomeKitOrderRequisition',
  // Changes whose answer shows the person.
  'updateProfile',
  'createAppointment',
  'updateAppointment',
  'cancelAppointment',
  'createHomeKitOrder',
  'cancelHomeKitOrder',
  'attachHomeKitOrderPanels',
  'attachHomeKitOrderBiomarkers',
  'dispatchHomeKitOrder',
  'activateHomeKitOrder',
  // The lab reports that matched no order (issue #51): the list shows the patient the lab named (entries by
  // unmatched result, readUnmatched); a match answers the results now the appointment's (the entry: its profile's).
  'listUnmatchedResults',
  'matchUnmatchedResult',
  // The patient's page (issue #53): no key, so no collector; its use case records the view itself, the link as
  // its reader (shared/usecases/patient-page.ts). Listed for the IAM right to put the entry.
  'getPatientPage',
]);

/** A read of a person's data: of a profile's, or of an unmatched result's patient (no profile known). */
export type Read = { profileId: string; resource: string } | { unmatchedResultId: string; resource: string };

/** One request's reads, each once, in the order they were said. Pure: it only remembers. */
export class ReadCollector implements ReadAudit {
  readonly #route: RouteName;
  readonly #reads: Read[] = [];

  constructor(route: RouteName) {
    this.#route = route;
  }

  read(profileId: string, resource: string): void {
    this.#remember({ profileId, resource });
  }

  readUnmatched(unmatchedResultId: string, resource: string): void {
    this.#remember({ unmatchedResultId, resource });
  }

  #remember(read: Read): void {
    // Loud rather than an unrecorded read: without the list's IAM right the entry could not be written anyway.
    if (!AUDITED_ROUTES.has(this.#route)) throw new Error(`${this.#route} shows a person's data but is not in AUDITED_ROUTES`);
    const same = (seen: Read) => JSON.stringify(seen) === JSON.stringify(read);
    if (!this.#reads.some(same)) this.#reads.push(read);
  }

  get reads(): readonly Read[] {
    return this.#reads;
  }
}
