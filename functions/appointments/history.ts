// GET /api/v1/appointments/{id}/history — the appointment's status changes, oldest first (beyond the spec).
import { assertProfileResourceAccess } from '../../shared/auth/access';
import type { AppointmentStatus } from '../../shared/domain/appointment';
import { NotFound } from '../../shared/errors';
import { httpHandler } from '../../shared/http/handler';
import { okPage } from '../../shared/http/responses';
import { IdParams } from '../../shared/schemas/fields';
import { toHistoryEntry } from '../../shared/schemas/history';
import { PageQuery } from '../../shared/schemas/pagination';
import { getAppointment } from '../../shared/store/appointments/reads';
import { APPOINTMENT_NOT_FOUND } from '../../shared/store/appointments/records';
import { pageHistory } from '../../shared/store/history';
import * as keys from '../../shared/store/keys/items';
import { pageFor } from '../../shared/usecases/paging';
import * as routes from '../../shared/routes/appointments';

export const handler = httpHandler({
  route: routes.listAppointmentHistory,
  params: IdParams,
  query: PageQuery,
  async run({ params, query, access }) {
    // Both reads at once; the page is only answered once access is checked.
    const [appointment, page] = await Promise.all([
      getAppointment(params.id),
      pageHistory<AppointmentStatus>(keys.appointment(params.id), pageFor(query, access)),
    ]);
    if (!appointment) throw new NotFound(APPOINTMENT_NOT_FOUND);
    assertProfileResourceAccess(access, appointment, 'appointment');
    // The history holds the cancellation reason, free text about the person: a read like the appointment's.
    access.audit?.read(appointment.profile_id, `appointment ${params.id} history`);
    return okPage({ ...page, items: page.items.map(toHistoryEntry) });
  },
});
