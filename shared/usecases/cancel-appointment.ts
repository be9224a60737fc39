/**
 * Cancels a scheduled appointment with a reason (kept in its history, never in an event). The write is
 * conditional on the appointment as read (its tests, location and time: the answer shows them); a racing
 * attach or PATCH makes it read the appointment again and decide again (shared/usecases/decide-again.ts),
 * a racing confirm or cancel answers 409.
 */
import { assertProfileResourceAccess } from '../auth/access';
import { assertCancellable } from '../domain/appointment';
import { type Actor, apiActor } from '../domain/lifecycle';
import { getAppointmentAggregateOrThrow } from '../store/appointments/reads';
import { type AppointmentAggregate, appointmentLifecycle, type AppointmentRecord } from '../store/appointments/records';
import { releaseHeldSeat, seatAsRead, testsAndLocationAsRead } from '../store/appointments/writes';
import { getExistingProfile, type ProfileRecord } from '../store/profiles';
import { type Condition, joinPlaceholders, recorded } from '../store/transitions';
import { commit } from './commit';
import { decideAgainOnRace } from './decide-again';
import type { Caller } from './request';
import { BUSINESS_METRICS, countBusiness } from '../metrics';

function asRead(appointment: AppointmentRecord): Condition {
  const testsAndLocation = testsAndLocationAsRead(appointment);
  return {
    expression: `${testsAndLocation.expression} AND scheduled_at = :readScheduledAt AND ${seatAsRead(appointment)}`,
    values: joinPlaceholders(testsAndLocation.values, { ':readScheduledAt': appointment.scheduled_at }),
  };
}

async function writeCancel(aggregate: AppointmentAggregate, reason: string, actor: Actor, at: string): Promise<AppointmentAggregate> {
  const { appointment } = aggregate;
  const after: AppointmentRecord = { ...appointment, status: 'cancelled', cancellation_reason: reason, updated_at: at };
  const transition = { lifecycle: appointmentLifecycle, before: appointment, after, actor, at, reason, condition: asRead(appointment) };
  // asRead includes the time and location: the seat freed is the one the appointment holds.
  await commit({ transitions: [transition], items: releaseHeldSeat(appointment), writtenAt: at });
  countBusiness(BUSINESS_METRICS.appointmentsCancelled);
  return { ...aggregate, appointment: recorded(appointment, after) };
}

export async function cancelAppointment(
  id: string,
  reason: string,
  { access, now, actor, guard }: Caller,
): Promise<{ aggregate: AppointmentAggregate; profile: ProfileRecord }> {
  const aggregate = await getAppointmentAggregateOrThrow(id);
  assertProfileResourceAccess(access, aggregate.appointment, 'appointment');
  const assertAllowed = (current: AppointmentAggregate) => {
    assertCancellable(current.appointment.status);
    guard?.(current.appointment);
  };
  assertAllowed(aggregate);
  const at = now.toISOString();
  const write = decideAgainOnRace({
    read: aggregate,
    reread: () => getAppointmentAggregateOrThrow(id),
    assertAllowed,
    write: (current) => writeCancel(current, reason, actor ?? apiActor(access.keyId), at),
    what: 'appointment',
  });
  const [cancelled, profile] = await Promise.all([write, getExistingProfile(aggregate.appointment.profile_id)]);
  return { aggregate: cancelled, profile };
}
