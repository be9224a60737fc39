// POST /api/v1/appointments/{id}/confirm — records the blood draw (barcode) and starts the lab order pipeline.
import { assertProfileResourceAccess } from '../../shared/auth/access';
import { decideConfirm, plannedBiomarkerIds } from '../../shared/domain/appointment';
import { labOrderRequested } from '../../shared/events/lab-order-requested';
import { publishCommitted } from '../../shared/events/outbox';
import { httpHandler } from '../../shared/http/handler';
import { ok } from '../../shared/http/responses';
import { ConfirmBody } from '../../shared/schemas/appointments';
import { IdParams } from '../../shared/schemas/fields';
import { getAppointmentAggregateOrThrow, recordBloodDraw } from '../../shared/store/appointments';
import { getPanels } from '../../shared/store/catalog';

export const handler = httpHandler({
  route: 'confirmAppointment',
  params: IdParams,
  body: ConfirmBody,
  async run({ params, body, access, now }) {
    const { appointment, panels, biomarkers } = await getAppointmentAggregateOrThrow(params.id);
    assertProfileResourceAccess(access, appointment, 'appointment');
    if (decideConfirm(appointment.status, appointment.barcode, body.barcode) === 'already-confirmed') {
      return ok({ success: true }); // a safe retry: nothing changes, no second event
    }
    const panelIds = panels.map((link) => link.panel_id);
    const catalogPanels = await getPanels(panelIds);
    const event = labOrderRequested(
      {
        appointment_id: appointment.id,
        profile_id: appointment.profile_id,
        barcode: body.barcode,
        test_method: appointment.test_method ?? 'practitioner',
        location_id: appointment.location_id,
        panel_ids: panelIds,
        biomarker_ids: plannedBiomarkerIds(
          catalogPanels.map((panel) => panel.biomarker_ids),
          biomarkers.map((link) => link.biomarker_id),
        ),
      },
      now.toISOString(),
    );
    const outcome = await recordBloodDraw(appointment.id, body.barcode, event);
    if (outcome === 'recorded') await publishCommitted([event]);
    return ok({ success: true });
  },
});
