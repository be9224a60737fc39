/** What the results report draws: plain data, every date and word in it (shared/report/results-report.ts). */
import type { ValueOperator } from '../domain/results';
import { type ReportLanguage } from './report-language';

export interface ReportRange {
  min: number | null;
  max: number | null;
}

export interface ClinicalReportItem {
  name: string;
  category: string;
  /** not_performed: the lab could not test the specimen (it must be drawn again). */
  status: 'received' | 'planned' | 'not_performed';
  value: number | null;
  valueOperator: ValueOperator | null;
  unit: string | null;
  normal: ReportRange | null;
  optimal: ReportRange | null;
  /** H/L against the normal range; HH/LL beyond the critical limits; N inside; null: nothing to compare. */
  flag: ReportFlag | null;
  /** preliminary and corrected values are marked under the value; final ones are not. */
  resultStatus?: 'preliminary' | 'final' | 'corrected' | null;
}

export type ReportFlag = 'H' | 'L' | 'HH' | 'LL' | 'A' | 'N';
/** The flags drawn in the flag column (N is not: a value inside its range needs no mark). */
export const isMarked = (flag: ReportFlag | null): flag is Exclude<ReportFlag, 'N'> => flag !== null && flag !== 'N';

export interface GeneticReportItem {
  gene: string;
  status: 'received' | 'planned' | 'not_performed';
  genotype: string | null;
  significance: string | null;
  description: string | null;
}

export interface ResultsReportInput {
  serviceName: string;
  /** The profile's language: every label, number and date is written in it (./report-language.ts). */
  language: ReportLanguage;
  patient: { name: string | null; birthDate: string | null };
  /** When the blood was drawn: an ISO instant or a calendar date. */
  sampleDate: string | null;
  /** The location's name; null for a home test kit. */
  location: string | null;
  barcode: string | null;
  /** When the lab last reported a result (ISO instant). */
  reportedAt: string | null;
  status: 'completed' | 'in_progress';
  clinical: ClinicalReportItem[];
  genetic: GeneticReportItem[];
}
