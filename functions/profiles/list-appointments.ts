// GET /api/v1/profiles/{id}/appointments — the profile's appointments, newest scheduled_at first.
import { assertProfileGroupAccess } from '../../shared/auth/access';
import { NotFound } from '../../shared/errors';
import { httpHandler } from '../../shared/http/handler';
import { okPage } from '../../shared/http/responses';
import { PageQuery } from '../../shared/schemas/pagination';
import { toAppointmentSummary } from '../../shared/schemas/appointments';
import { IdParams } from '../../shared/schemas/fields';
import { listAppointmentsOfProfile } from '../../shared/store/appointments/reads';
import { getProfile, PROFILE_NOT_FOUND } from '../../shared/store/profiles';
import { pageFor } from '../../shared/usecases/paging';
import * as routes from '../../shared/routes/appointments';

export const handler = httpHandler({
  route: routes.listProfileAppointments,
  params: IdParams,
  query: PageQuery,
  async run({ params, query, access }) {
    // Both reads at once: one round trip of latency; the list is only answered once access is checked.
    const [profile, page] = await Promise.all([getProfile(params.id), listAppointmentsOfProfile(params.id, pageFor(query, access))]);
    if (!profile) throw new NotFound(PROFILE_NOT_FOUND);
    assertProfileGroupAccess(access, profile.profile_group_slug, 'profile');
    access.audit?.read(profile.id, 'profile appointments');
    return okPage({ ...page, items: page.items.map(toAppointmentSummary) });
  },
});
