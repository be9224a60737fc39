/**
 * The results report a person reads at a glance (GET /appointments/{id}/results/report): the appointment's
 * results, with the patient, the sample and its location, rendered as a PDF by the service itself
 * (shared/report/results-report.ts). Same access rules as the results.
 */
import { clinicalResultItems, geneticResultItems, type Interpretation, interpretationOf, orderedRange } from '../domain/results';
import { type ReportLanguage, reportLanguageOf } from '../report/report-language';
import { type ReportFlag, renderResultsReport, type ResultsReportInput } from '../report/results-report';
import { getLocation } from '../store/locations';
import { getExistingProfile } from '../store/profiles';
import { readResults } from './read-results';
import type { Caller } from './request';

export const SERVICE_NAME = 'Lab Testing Service';

const FLAGS: Record<Interpretation, ReportFlag> = { normal: 'N', low: 'L', high: 'H', critical_low: 'LL', critical_high: 'HH', abnormal: 'A' };
const reportFlag = (interpretation: Interpretation | null) => (interpretation === null ? null : FLAGS[interpretation]);

const fullName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ') || null;
const bounds = (min: number | null | undefined, max: number | null | undefined) => (min == null && max == null ? null : { min: min ?? null, max: max ?? null });

export async function resultsReport(id: string, { access }: Caller): Promise<{ pdf: Uint8Array; fileName: string; language: ReportLanguage }> {
  const { aggregate, catalog, planned, clinical, genetic, rejected, status, reportedAt } = await readResults(id, access, 'results report');
  const { appointment } = aggregate;
  const [profile, location] = await Promise.all([
    getExistingProfile(appointment.profile_id),
    appointment.location_id ? getLocation(appointment.location_id) : Promise.resolve(undefined),
  ]);

  const language = reportLanguageOf(profile.language);
  const input: ResultsReportInput = {
    serviceName: SERVICE_NAME,
    language,
    patient: { name: fullName(profile.first_name, profile.last_name), birthDate: profile.date_of_birth },
    sampleDate: appointment.blood_drawn_at,
    location: location?.name ?? null,
    barcode: appointment.barcode,
    reportedAt,
    status,
    clinical: clinicalResultItems(planned, catalog.biomarkers, clinical, rejected).map((item) => {
      // The lab's range for this sample where it gave one, else the service's own; optimal only the service has.
      const range = orderedRange(item.reference_range_lab ?? item.reference_range_service);
      const service = item.reference_range_service;
      return {
        name: item.biomarker_name,
        category: item.category,
        status: item.status,
        value: item.value,
        valueOperator: item.value_operator,
        unit: item.unit ?? catalog.biomarkers.get(item.biomarker_id)?.unit ?? null,
        normal: bounds(range?.normal_min, range?.normal_max),
        optimal: bounds(service?.optimal_min, service?.optimal_max),
        // The value's interpretation (the lab's flag or ours, critical limits included); for a value the
        // lab sent no range with, the service's range.
        flag:
          item.status !== 'received' ? null : reportFlag(item.interpretation ?? (item.value === null ? null : interpretationOf(item.value, range, undefined))),
        resultStatus: item.result_status,
      };
    }),
    genetic: geneticResultItems(planned, catalog.biomarkers, genetic, rejected).map((item) =>
      item.status === 'received'
        ? {
            gene: item.result.gene,
            status: 'received' as const,
            genotype: item.result.genotype,
            significance: item.result.clinical_significance,
            description: item.result.risk_description,
          }
        : { gene: item.gene, status: item.status, genotype: null, significance: null, description: null },
    ),
  };
  const pdf = await renderResultsReport(input);
  return { pdf, fileName: `results-${(appointment.blood_drawn_at ?? appointment.created_at).slice(0, 10)}.pdf`, language };
}
