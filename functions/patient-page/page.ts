// GET /p/{token} — no key: the patient's page of one appointment (time, place, preparation, status; reschedule and cancel while ≥ 2 h away).
import { PATIENT_LINK_HEADERS } from '../../shared/http/patient-link';
import type { BinaryBody, Reply } from '../../shared/http/responses';
import { publicHttpHandler } from '../../shared/http/stack';
import { renderLinkErrorPage, renderPatientPage } from '../../shared/patient-page/render';
import type { RenderedPage } from '../../shared/patient-page/view';
import { AnyQuery, PatientLinkParams } from '../../shared/schemas/patient-page';
import { openPatientPage } from '../../shared/usecases/patient-page';
import * as routes from '../../shared/routes/patient-page';

const page = <S extends number>(statusCode: S, { html, headers }: RenderedPage): Reply<S, BinaryBody> => ({ statusCode, headers, body: html });

/** A browser opens this route: its refusals are pages too, in the three languages, never `{"error": …}`. */
const ERROR_PAGES: Readonly<Record<number, RenderedPage>> = {
  429: renderLinkErrorPage('busy'),
  500: renderLinkErrorPage('failed'),
  503: renderLinkErrorPage('busy'),
};

export const handler = publicHttpHandler({
  route: routes.getPatientPage,
  params: PatientLinkParams,
  // A link gains parameters on its way (a campaign's utm_source, a mail scanner's marker): the page ignores them.
  query: AnyQuery,
  headers: PATIENT_LINK_HEADERS,
  errorPage: (statusCode) => ERROR_PAGES[statusCode],
  async run({ params, now, request }) {
    const view = await openPatientPage(params.token, now, request);
    if (view === 'not_found') return page(404, renderLinkErrorPage('not_found'));
    if (view === 'expired') return page(410, renderLinkErrorPage('expired'));
    return page(200, renderPatientPage(view));
  },
});
