/** Cancels a scheduled appointment with a reason (kept in its history, never in an event). */
import { assertProfileResourceAccess } from '../auth/access';
import { assertCancellable } from '../domain/appointment';
import { apiActor } from '../domain/lifecycle';
import { Conflict } from '../errors';
import { getAppointmentAggregateOrThrow } from '../store/appointments/reads';
import { type AppointmentAggregate, appointmentLifecycle, type AppointmentRecord } from '../store/appointments/records';
import { CHANGED_MEANWHILE } from '../store/appointments/writes';
import { getExistingProfile, type ProfileRecord } from '../store/profiles';
import { TransactionCancelled } from '../store/transactions';
import { recorded } from '../store/transitions';
import { commit } from './commit';
import type { Caller } from './request';

export async function cancelAppointment(
  id: string,
  reason: string,
  { access, now }: Caller,
): Promise<{ aggregate: AppointmentAggregate; profile: ProfileRecord }> {
  const aggregate = await getAppointmentAggregateOrThrow(id);
  const { appointment } = aggregate;
  assertProfileResourceAccess(access, appointment, 'appointment');
  assertCancellable(appointment.status);
  const at = now.toISOString();
  const after: AppointmentRecord = { ...appointment, status: 'cancelled', cancellation_reason: reason, updated_at: at };
  const write = commit({
    transitions: [{ lifecycle: appointmentLifecycle, before: appointment, after, actor: apiActor(access.keyId), at, reason }],
    writtenAt: at,
  }).catch(async (error: unknown) => {
    if (!(error instanceof TransactionCancelled)) throw error;
    // A racing request changed it first: answer the conflict its new status calls for.
    assertCancellable((await getAppointmentAggregateOrThrow(id)).appointment.status);
    throw new Conflict(CHANGED_MEANWHILE);
  });
  const [, profile] = await Promise.all([write, getExistingProfile(appointment.profile_id)]);
  return { aggregate: { ...aggregate, appointment: recorded(appointment, after) }, profile };
}
