/**
 * shared/report renders documents for people to read. It takes plain data and gives bytes: it knows no
 * HTTP, no store and no clock (every date it prints is in its input), and it never logs, since every
 * field it is given is patient data.
 *
 * The results report: one A4 PDF a patient reads at a glance. A header says whose sample it is; each
 * received blood test is a row with its value, an H/L flag and a bar that places the value against the
 * normal range (light band) and the optimal range (green band); tests still at the lab say "pending";
 * genetic findings are sentences. Rows flow onto as many pages as they need, each page numbered.
 */
import { PDFDocument } from '@cantoo/pdf-lib';
import { embedReportText, type TextStyle } from './fonts';
import { REPORT_WORDS, reportFormat, type ReportWords } from './report-language';
import type { GeneticReportItem, ResultsReportInput } from './results-report-input';
import { COLOR, FOOTER_BASELINE, LEFT, MARGIN, PAGE_SIZE, RIGHT, ROW, SIZE, WIDTH, type Sheet, drawRule, drawSectionTitle, makeRoom } from './sheet';
import { formatDate, formatDateTime, formatValue, wrap } from './report-text';
import { drawClinicalSection } from './clinical-section';

export type { ClinicalReportItem, GeneticReportItem, ReportFlag, ReportRange, ResultsReportInput } from './results-report-input';
export { barScale } from './clinical-section';

// ── The document ────────────────────────────────────────────────────────────────────────────────────

export async function renderResultsReport(input: ResultsReportInput): Promise<Uint8Array> {
  // No automatic metadata: the creation time would be the server's clock, not a fact of the report.
  const doc = await PDFDocument.create({ updateMetadata: false });
  const words = REPORT_WORDS[input.language];
  const format = reportFormat(input.language);
  doc.setTitle(words.title);
  doc.setLanguage(input.language);
  doc.setCreator(input.serviceName);
  // The fonts follow the characters drawn: the input's own, the language's words and the value signs (≤, ≥).
  const drawn = [...everyString(input), ...everyString(words), ...input.clinical.map((item) => formatValue(item, format))];
  const text = await embedReportText(doc, drawn.join(' '));
  const sheet: Sheet = { doc, text, words, format, input, page: doc.addPage(PAGE_SIZE), y: PAGE_SIZE[1] - MARGIN.top };

  drawHeader(sheet);
  drawClinicalSection(sheet);
  drawGeneticSection(sheet);
  drawFooters(sheet);
  return doc.save();
}

// ── Header ──────────────────────────────────────────────────────────────────────────────────────────

function drawHeader(sheet: Sheet): void {
  const { page, text, input, words } = sheet;
  const top = sheet.y;
  text.draw(page, input.serviceName, { x: LEFT, y: top - 10, size: SIZE.service, weight: 'bold', color: COLOR.accent });
  drawStatusBadge(sheet, top);
  text.draw(page, words.title, { x: LEFT, y: top - 38, size: SIZE.title, weight: 'bold', color: COLOR.ink });
  sheet.y = top - 54;

  // Three columns; the patient's name gets two of them, as names are the longest field.
  const third = WIDTH / 3;
  drawFieldRow(sheet, [
    { label: words.patient, value: input.patient.name, x: LEFT, width: 2 * third - 12 },
    { label: words.dateOfBirth, value: formatDate(input.patient.birthDate, sheet.format), x: LEFT + 2 * third, width: third },
  ]);
  drawFieldRow(sheet, [
    { label: words.sampleTaken, value: formatDate(input.sampleDate, sheet.format), x: LEFT, width: third - 12 },
    { label: words.location, value: input.location ?? words.homeTestKit, x: LEFT + third, width: third - 12 },
    { label: words.barcode, value: input.barcode, x: LEFT + 2 * third, width: third },
  ]);
  drawRule(sheet.page, sheet.y - 4);
  sheet.y -= 12;
}

function drawStatusBadge(sheet: Sheet, top: number): void {
  const done = sheet.input.status === 'completed';
  const label = done ? sheet.words.allIn : sheet.words.somePending;
  const style: TextStyle = { size: SIZE.small, weight: 'bold' };
  const width = sheet.text.width(label, style) + 14;
  sheet.page.drawRectangle({ x: RIGHT - width, y: top - 14, width, height: 16, rx: 8, ry: 8, color: done ? COLOR.done : COLOR.pending });
  sheet.text.draw(sheet.page, label, { x: RIGHT - width + 7, y: top - 9, ...style, color: done ? COLOR.doneInk : COLOR.pendingInk });
}

interface Field {
  label: string;
  value: string | null;
  x: number;
  width: number;
}

/** A row of labelled values; a value too long for its column wraps, and the row grows with it. */
function drawFieldRow(sheet: Sheet, fields: Field[]): void {
  const style: TextStyle = { size: SIZE.field, color: COLOR.ink };
  const wrapped = fields.map((field) => wrap(sheet.text, field.value ?? '—', style, field.width));
  const lineHeight = SIZE.field + 3;
  for (const [index, field] of fields.entries()) {
    sheet.text.draw(sheet.page, field.label.toLocaleUpperCase(sheet.input.language), {
      x: field.x,
      y: sheet.y - SIZE.label,
      size: SIZE.label,
      weight: 'bold',
      color: COLOR.muted,
    });
    for (const [line, content] of (wrapped[index] ?? []).entries()) {
      sheet.text.draw(sheet.page, content, { x: field.x, y: sheet.y - SIZE.label - 14 - line * lineHeight, ...style });
    }
  }
  const lines = Math.max(...wrapped.map((lines) => lines.length));
  sheet.y -= SIZE.label + 14 + (lines - 1) * lineHeight + 12;
}

// ── Genetic findings ────────────────────────────────────────────────────────────────────────────────

function drawGeneticSection(sheet: Sheet): void {
  if (sheet.input.genetic.length === 0) return;
  makeRoom(sheet, 60);
  sheet.y -= 10;
  drawSectionTitle(sheet, sheet.words.geneticFindings);
  for (const item of sheet.input.genetic) drawGeneticFinding(sheet, item);
}

/** "APOE: genotype e3/e4 — moderate risk. <description>", the gene in bold, wrapped under it. */
function drawGeneticFinding(sheet: Sheet, item: GeneticReportItem): void {
  const { text, words } = sheet;
  const geneStyle: TextStyle = { size: SIZE.body, weight: 'bold', color: COLOR.ink };
  const gene = `${item.gene}: `;
  const indent = text.width(gene, geneStyle);
  const pending = item.status !== 'received';
  const style: TextStyle = { size: SIZE.body, color: pending ? COLOR.muted : COLOR.ink };
  const said = item.status === 'not_performed' ? words.notPerformed : item.status === 'planned' ? words.pending : geneticSentence(item, words);
  const lines = wrap(text, said, style, WIDTH, indent);
  const height = lines.length * ROW.lineHeight + 8;
  makeRoom(sheet, height);
  const baseline = sheet.y - 11;
  text.draw(sheet.page, gene, { x: LEFT, y: baseline, ...geneStyle });
  for (const [index, line] of lines.entries()) {
    text.draw(sheet.page, line, { x: LEFT + (index === 0 ? indent : 0), y: baseline - index * ROW.lineHeight, ...style });
  }
  sheet.y -= height;
}

/** The finding in plain words: the lab's significance code "moderate_risk" reads "moderate risk". */
function geneticSentence(item: GeneticReportItem, words: ReportWords): string {
  const finding = [item.genotype && `${words.genotype} ${item.genotype}`, item.significance?.replaceAll('_', ' ')].filter(Boolean).join(' — ');
  return [finding && `${finding}.`, item.description].filter(Boolean).join(' ') || words.noFinding;
}

// ── Footer ──────────────────────────────────────────────────────────────────────────────────────────

/** Drawn once every page exists, since each says how many there are. */
function drawFooters({ doc, text, input, words, format }: Sheet): void {
  const pages = doc.getPages();
  const style: TextStyle = { size: SIZE.small, color: COLOR.muted };
  const reported = input.reportedAt ? words.reported(formatDateTime(input.reportedAt, format)) : words.noneReported;
  for (const [index, page] of pages.entries()) {
    drawRule(page, FOOTER_BASELINE + 12);
    text.draw(page, reported, { x: LEFT, y: FOOTER_BASELINE, ...style });
    const number = words.page(index + 1, pages.length);
    text.draw(page, number, { x: RIGHT - text.width(number, style), y: FOOTER_BASELINE, ...style });
  }
}

/** Every string in the input: the characters the report may draw, which decide the fonts it embeds. */
function* everyString(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (value && typeof value === 'object') for (const inner of Object.values(value)) yield* everyString(inner);
}
