/**
 * The smoke test's whole flow with a sandbox key (docs/sandbox.md): a profile, a free slot from a location's
 * availability, a booking, a panel attached, the draw confirmed with a barcode of its own, the lab's answer
 * simulated, the results and the PDF report read back; with a webhook URL, a subscription first, a test send,
 * and the flow's LabResultsAvailable delivered. Then it cleans up after itself: the subscription deleted, a
 * booking still scheduled cancelled, the profile erased when the key may. Everything else is sandbox data,
 * deleted by DynamoDB 30 days after it was written.
 *
 * It writes nothing before the simulate route has shown the key to be a sandbox key (404 for an unknown
 * appointment, where a live key gets 403), so a live key never creates a record here.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { type Api, type Chain, list, object, reasonOf, type Steps, StepFailed, text, unexpected } from './smoke-steps';

export interface FlowOptions {
  profileGroup: string;
  webhookUrl?: string;
  /** How long the flow's LabResultsAvailable may take to be delivered. */
  deliveryWaitMs: number;
}

/** A subscription this test made (its description says so) and left behind, deleted by a later run after this long. */
const LEFTOVER_AFTER_MS = 15 * 60_000;
const SMOKE_DESCRIPTION = 'npm run smoke';
const V1 = '/api/v1';

/** What the flow created, for the clean-up. */
interface Made {
  webhookId?: string;
  profileId?: string;
  appointmentId?: string;
  scheduled?: boolean;
}

export async function sandboxFlow(steps: Steps, api: Api, options: FlowOptions): Promise<void> {
  const made: Made = {};
  try {
    await flow(steps.chain(), api, options, made);
  } finally {
    await steps.run('clean-up', () => cleanUp(api, made));
  }
}

async function flow(sandboxKey: Chain, api: Api, options: FlowOptions, made: Made): Promise<void> {
  await sandboxKey.run('sandbox key', async () => {
    const path = `${V1}/sandbox/appointments/${randomUUID()}/results`;
    const answer = await api.call('POST', path, { body: { outcome: 'normal' } });
    if (answer.status === 403) throw new StepFailed('the simulate route answered 403: not a sandbox key, or one without RESULTS_VIEW; nothing was written');
    if (answer.status !== 404) throw unexpected('POST', path, answer, 404);
    return '404 from the simulate route for an unknown appointment (a live key gets 403)';
  });

  // The subscription and the booking each go on from the key's check; the delivery needs both.
  const webhook = sandboxKey.fork();
  const booking = sandboxKey.fork();
  const { webhookUrl } = options;
  if (webhookUrl) {
    await webhook.run('webhook subscribe', async () => {
      const leftovers = await deleteLeftoverSubscriptions(api);
      const created = object(
        (
          await api.expect('POST', `${V1}/webhooks`, 201, {
            body: {
              url: webhookUrl,
              event_types: ['AppointmentStatusChanged', 'LabResultsAvailable'],
              description: `${SMOKE_DESCRIPTION} ${new Date().toISOString()}`,
            },
          })
        ).json(),
        'the subscription',
      );
      made.webhookId = text(created, 'id', 'the subscription');
      const read = object((await api.expect('GET', `${V1}/webhooks/${made.webhookId}`, 200)).json(), 'the subscription');
      const status = text(read, 'status', 'the subscription');
      if (status !== 'enabled') throw new StepFailed(`the new subscription is ${status}`);
      return `${made.webhookId} enabled${leftovers ? `; ${leftovers} left by an earlier run deleted` : ''}`;
    });
    await webhook.run('webhook test', async () => {
      const delivery = object((await api.expect('POST', `${V1}/webhooks/${made.webhookId}/test`, 200)).json(), 'the test delivery');
      if (delivery.outcome !== 'succeeded') throw new StepFailed(`the test send was not accepted by the receiver: ${attemptOf(delivery)}`);
      return `webhook.test delivered (${attemptOf(delivery)})`;
    });
  }

  await booking.run('profile', async () => {
    const created = await api.expect('POST', `${V1}/profiles`, 201, {
      // Made-up, as the walkthrough's.
      body: { profile_group_slug: options.profileGroup, first_name: 'Erika', last_name: 'Muster', date_of_birth: '1984-08-12' },
    });
    made.profileId = text(object(created.json(), 'the profile'), 'id', 'the profile');
    return `${made.profileId} in ${options.profileGroup}`;
  });

  let free: { locationId: string; starts: string[] } | undefined;
  await booking.run('slots', async () => {
    const locations = list((await api.expect('GET', `${V1}/locations`, 200)).json(), 'the locations').map((l) => object(l, 'a location'));
    for (const location of locations) {
      const locationId = text(location, 'id', 'a location');
      const availability = object((await api.expect('GET', `${V1}/locations/${locationId}/availability`, 200)).json(), 'the availability');
      const starts = list(availability.slots, 'the slots').map((slot) => text(object(slot, 'a slot'), 'start', 'a slot'));
      if (starts.length > 0) {
        free = { locationId, starts };
        return `${starts.length} free at ${text(location, 'name', 'a location')} from ${availability.from} to ${availability.to}`;
      }
    }
    throw new StepFailed(`no free slot this week at any of the key's ${locations.length} location(s)`);
  });

  await booking.run('book', async () => {
    // A random free slot, so that runs at once rarely meet; a slot taken meanwhile (409): another one.
    for (let attempt = 1; ; attempt += 1) {
      const slots = free?.starts ?? [];
      const start = slots.splice(Math.floor(Math.random() * slots.length), 1)[0];
      if (!start) throw new StepFailed('every free slot was taken meanwhile');
      const path = `${V1}/appointments`;
      const answer = await api.call('POST', path, { body: { profile_id: made.profileId, location_id: free?.locationId, scheduled_at: start } });
      if (answer.status === 409 && attempt < 3) continue;
      if (answer.status !== 201) throw unexpected('POST', path, answer, 201);
      const appointment = object(answer.json(), 'the appointment');
      made.appointmentId = text(appointment, 'id', 'the appointment');
      made.scheduled = true;
      return `${made.appointmentId} ${text(appointment, 'status', 'the appointment')} at ${start}`;
    }
  });

  await booking.run('attach', async () => {
    const panel = object(list((await api.expect('GET', `${V1}/panels`, 200)).json(), 'the panels')[0], 'the first panel');
    await api.expect('POST', `${V1}/appointments/${made.appointmentId}/panels`, 200, { body: { panel_ids: [text(panel, 'id', 'the panel')] } });
    return `panel ${text(panel, 'name', 'the panel')} (${list(panel.biomarker_ids, "the panel's tests").length} tests)`;
  });

  await booking.run('confirm', async () => {
    const barcode = `SMOKE-${randomBytes(6).toString('hex').toUpperCase()}`; // its own, so runs never meet
    await api.expect('POST', `${V1}/appointments/${made.appointmentId}/confirm`, 200, { body: { barcode } });
    made.scheduled = false;
    const status = text(
      object((await api.expect('GET', `${V1}/appointments/${made.appointmentId}`, 200)).json(), 'the appointment'),
      'status',
      'the appointment',
    );
    if (status !== 'blood_drawn') throw new StepFailed(`the confirmed appointment is ${status}, expected blood_drawn`);
    return `${status}, with a barcode of its own`;
  });

  await booking.run('simulated results', async () => {
    const results = object(
      (await api.expect('POST', `${V1}/sandbox/appointments/${made.appointmentId}/results`, 200, { body: { outcome: 'normal' } })).json(),
      'the results',
    );
    return `outcome normal, results ${text(results, 'status', 'the results')}`;
  });

  await booking.run('results', async () => {
    const results = object((await api.expect('GET', `${V1}/appointments/${made.appointmentId}/results`, 200)).json(), 'the results');
    const status = text(results, 'status', 'the results');
    if (status !== 'completed') throw new StepFailed(`the results are ${status}, expected completed`);
    const count = list(results.clinical_results, 'the clinical results').length + list(results.genetic_results, 'the genetic results').length;
    return `${status}, ${count} result(s)`;
  });

  await booking.run('report', async () => {
    const report = await api.expect('GET', `${V1}/appointments/${made.appointmentId}/results/report`, 200);
    if (!report.contentType.startsWith('application/pdf'))
      throw new StepFailed(`the report is ${report.contentType || 'without a content type'}, expected application/pdf`);
    if (report.bytes.subarray(0, 5).toString('latin1') !== '%PDF-') throw new StepFailed('the report does not start with %PDF-');
    return `application/pdf, ${Math.round(report.bytes.length / 1024)} KB`;
  });

  if (webhookUrl) {
    await webhook.and(booking).run('webhook delivered', () => labResultsDelivered(api, made, options.deliveryWaitMs));
  }
}

/**
 * Waits for the delivery of this flow's LabResultsAvailable to the subscription (its event, read from the
 * event log, names the appointment) and answers once it succeeded; fails at once when a finished attempt was refused.
 */
async function labResultsDelivered(api: Api, made: Made, waitMs: number): Promise<string> {
  const deadline = Date.now() + waitMs;
  const ours = new Map<string, boolean>(); // event id → whether it is this flow's appointment's
  for (;;) {
    const deliveries = list((await api.expect('GET', `${V1}/webhooks/${made.webhookId}/deliveries?limit=100`, 200)).json(), 'the deliveries');
    for (const delivery of deliveries.map((d) => object(d, 'a delivery'))) {
      if (delivery.event_type !== 'LabResultsAvailable') continue;
      const eventId = text(delivery, 'event_id', 'a delivery');
      if (!ours.has(eventId)) {
        const event = object((await api.expect('GET', `${V1}/events/${eventId}`, 200)).json(), 'the event');
        ours.set(eventId, object(event.data, "the event's data").appointment_id === made.appointmentId);
      }
      if (!ours.get(eventId)) continue;
      if (delivery.outcome === 'succeeded') return `LabResultsAvailable of the appointment (${attemptOf(delivery)})`;
      // An attempt is counted when it starts (the dispatcher claims it) and answered when it ends: one in flight
      // has no status code and no error yet, and is waited for like a delivery not yet attempted.
      const answered = delivery.last_status_code != null || delivery.last_error != null;
      if (delivery.attempts !== 0 && answered) throw new StepFailed(`the delivery of LabResultsAvailable was not accepted: ${attemptOf(delivery)}`);
    }
    if (Date.now() > deadline) throw new StepFailed(`no delivery of the appointment's LabResultsAvailable within ${waitMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** How a delivery's last attempt went, from its log entry. */
function attemptOf(delivery: Record<string, unknown>): string {
  const how = typeof delivery.last_error === 'string' ? delivery.last_error.slice(0, 200) : `the receiver answered ${String(delivery.last_status_code)}`;
  return `attempt ${String(delivery.attempts)}, ${how}`;
}

/** Deletes this key's subscriptions that an earlier run made and could not delete (interrupted): a key holds at most 10. */
async function deleteLeftoverSubscriptions(api: Api): Promise<number> {
  const webhooks = list((await api.expect('GET', `${V1}/webhooks`, 200)).json(), 'the subscriptions').map((w) => object(w, 'a subscription'));
  const leftovers = webhooks.filter(
    (w) =>
      typeof w.description === 'string' && w.description.startsWith(SMOKE_DESCRIPTION) && Date.now() - Date.parse(String(w.created_at)) > LEFTOVER_AFTER_MS,
  );
  for (const webhook of leftovers) await api.expect('DELETE', `${V1}/webhooks/${text(webhook, 'id', 'a subscription')}`, 200);
  return leftovers.length;
}

/** Undoes what can be undone; says what it did, and fails naming what it could not. */
async function cleanUp(api: Api, made: Made): Promise<string> {
  const done: string[] = [];
  const failed: string[] = [];
  const attempt = async (what: string, action: () => Promise<string | undefined>) => {
    try {
      const result = await action();
      if (result) done.push(result);
    } catch (error) {
      failed.push(`${what}: ${reasonOf(error)}`);
    }
  };
  if (made.webhookId)
    await attempt('the subscription', async () => (await api.expect('DELETE', `${V1}/webhooks/${made.webhookId}`, 200), 'subscription deleted'));
  if (made.appointmentId && made.scheduled) {
    await attempt('the appointment', async () => {
      await api.expect('POST', `${V1}/appointments/${made.appointmentId}/cancel`, 200, { body: { cancellation_reason: 'smoke test clean-up' } });
      return 'appointment cancelled';
    });
  }
  if (made.profileId) {
    await attempt('the profile', async () => {
      const answer = await api.call('POST', `${V1}/profiles/${made.profileId}/erase`);
      if (answer.status === 200) return 'profile erased';
      if (answer.status === 403) return 'profile kept (the key lacks PROFILES_ERASE)';
      throw new StepFailed(`POST ${V1}/profiles/{id}/erase answered ${answer.status}`);
    });
  }
  if (failed.length > 0) throw new StepFailed(`${failed.join('; ')}${done.length ? ` (${done.join(', ')})` : ''}`);
  if (!made.profileId && !made.webhookId) return 'nothing was created';
  return `${done.join(', ')}; the rest is sandbox data, deleted 30 days after it was written`;
}
