/**
 * A one-page PDF lab report as the simulated lab would send it: patient initials only (never a full
 * name), the appointment, barcode and sample date, and a table of biomarkers with value, unit, reference
 * range and an H/L flag where the value lies outside it.
 */
import { PDFDocument, rgb, StandardFonts } from 'pdf-lib';

export interface ReportLine {
  biomarker: string;
  value: string;
  unit: string;
  range: string;
  /** H above the normal range, L below, empty inside. */
  flag: string;
}

export interface LabReportContent {
  patientInitials: string;
  appointmentId: string;
  barcode: string;
  /** When the sample was taken (the blood draw, or the kit's activation). */
  sampleDate: string;
  reportedAt: string;
  lines: ReportLine[];
  geneticSummary?: string;
}

/** WinAnsi fonts cannot draw every character; the report's text is replaced where needed. */
const printable = (text: string) => text.replace(/[\u2013\u2014]/g, '-').replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '?');

export async function renderLabReport(content: LabReportContent): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.setTitle('Lab report');
  pdf.setProducer('Lab Testing Service — local lab simulator');
  const page = pdf.addPage([595, 842]); // A4 portrait, points
  const regular = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  let y = 790;
  const write = (text: string, x: number, size = 10, font = regular) => page.drawText(printable(text), { x, y, size, font });

  write('Laboratory report', 50, 20, bold);
  y -= 30;
  for (const [label, value] of [
    ['Patient', content.patientInitials],
    ['Appointment', content.appointmentId],
    ['Sample barcode', content.barcode],
    ['Sample taken', content.sampleDate],
    ['Reported', content.reportedAt],
  ] as const) {
    write(label, 50, 10, bold);
    write(value, 160, 10);
    y -= 16;
  }
  y -= 14;
  const columns = [50, 250, 340, 420, 515];
  ['Biomarker', 'Value', 'Unit', 'Reference range', 'Flag'].forEach((heading, i) => write(heading, columns[i] as number, 10, bold));
  y -= 6;
  page.drawLine({ start: { x: 50, y }, end: { x: 545, y }, thickness: 0.5, color: rgb(0.4, 0.4, 0.4) });
  y -= 14;
  for (const line of content.lines) {
    [line.biomarker, line.value, line.unit, line.range].forEach((cell, i) => write(cell, columns[i] as number));
    if (line.flag) write(line.flag, columns[4] as number, 10, bold);
    y -= 15;
  }
  if (content.geneticSummary) {
    y -= 15;
    write('Genetic findings', 50, 12, bold);
    y -= 16;
    write(content.geneticSummary, 50);
  }
  y = 40;
  write('Simulated report from the local lab sandbox. Not a medical document.', 50, 8);
  return pdf.save();
}
