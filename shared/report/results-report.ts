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
import { PDFDocument, rgb, type PDFPage } from '@cantoo/pdf-lib';
import { berlinDateTime } from '../domain/calendar';
import type { ValueOperator } from '../domain/results';
import { embedReportText, type ReportText, type TextStyle } from './fonts';
import { REPORT_WORDS, type ReportFormat, reportFormat, type ReportLanguage, type ReportWords } from './report-language';

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
const isMarked = (flag: ReportFlag | null): flag is Exclude<ReportFlag, 'N'> => flag !== null && flag !== 'N';

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

// ── Layout, in PDF points (1/72 inch); the origin is the page's bottom-left corner ─────────────────────

const PAGE_SIZE: [number, number] = [595.28, 841.89]; // A4
const MARGIN = { left: 42, right: 42, top: 44, bottom: 56 };
const LEFT = MARGIN.left;
const RIGHT = PAGE_SIZE[0] - MARGIN.right;
const WIDTH = RIGHT - LEFT;
const FOOTER_BASELINE = 30;

/** The columns of a blood-test row: name, value and unit, flag, range bar. */
const COLUMN = {
  name: { x: LEFT, width: 150 },
  value: { x: LEFT + 160, width: 96 },
  flag: { x: LEFT + 262, width: 16 },
  bar: { x: LEFT + 292, width: RIGHT - (LEFT + 292) },
};
const ROW = { minHeight: 34, pendingHeight: 22, firstBaseline: 14, lineHeight: 11.5, barTop: 8, barHeight: 8 };
/** How far the bar's scale reaches beyond the ranges, as a share of their span: room to show a value outside. */
const BAR_MARGIN = 0.25;

const SIZE = { title: 22, service: 10, section: 13, category: 9.5, label: 7.5, field: 10.5, body: 9.5, value: 10, unit: 8, small: 7.5 };

const COLOR = {
  ink: rgb(0.12, 0.14, 0.17),
  muted: rgb(0.42, 0.45, 0.5),
  rule: rgb(0.86, 0.88, 0.9),
  accent: rgb(0.03, 0.36, 0.42),
  track: rgb(0.92, 0.93, 0.94),
  normal: rgb(0.76, 0.89, 0.79),
  optimal: rgb(0.24, 0.6, 0.37),
  flag: rgb(0.78, 0.1, 0.12),
  flagBackground: rgb(0.99, 0.9, 0.9),
  white: rgb(1, 1, 1),
  done: rgb(0.86, 0.94, 0.88),
  doneInk: rgb(0.1, 0.42, 0.2),
  pending: rgb(0.99, 0.93, 0.8),
  pendingInk: rgb(0.55, 0.35, 0.02),
};

// ── The document ────────────────────────────────────────────────────────────────────────────────────

/** Where the next block goes: the current page and the top of its free space. */
interface Sheet {
  doc: PDFDocument;
  text: ReportText;
  words: ReportWords;
  format: ReportFormat;
  input: ResultsReportInput;
  page: PDFPage;
  y: number;
}

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

/** Starts a new page when `height` does not fit on this one, so no row is cut by a page end. */
function makeRoom(sheet: Sheet, height: number): void {
  if (sheet.y - height >= MARGIN.bottom) return;
  sheet.page = sheet.doc.addPage(PAGE_SIZE);
  sheet.y = PAGE_SIZE[1] - MARGIN.top;
  drawRunningHeader(sheet);
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

/** Pages after the first say whose report they belong to, in case they are read apart. */
function drawRunningHeader(sheet: Sheet): void {
  const { input, text, page, words } = sheet;
  const born = formatDate(input.patient.birthDate, sheet.format);
  const who = [input.patient.name, born && `${words.born} ${born}`].filter(Boolean).join(', ');
  const style: TextStyle = { size: SIZE.small, color: COLOR.muted };
  const right = `${input.serviceName} · ${words.title}`;
  const room = WIDTH - text.width(right, style) - 24;
  text.draw(page, firstLine(text, who, style, room), { x: LEFT, y: sheet.y - SIZE.small, ...style });
  text.draw(page, right, { x: RIGHT - text.width(right, style), y: sheet.y - SIZE.small, ...style });
  drawRule(page, sheet.y - SIZE.small - 6);
  sheet.y -= SIZE.small + 18;
}

// ── Blood tests ─────────────────────────────────────────────────────────────────────────────────────

function drawClinicalSection(sheet: Sheet): void {
  if (sheet.input.clinical.length === 0) return;
  makeRoom(sheet, 60);
  drawSectionTitle(sheet, sheet.words.bloodTests);
  drawLegend(sheet);
  for (const [category, items] of byCategory(sheet.input.clinical)) {
    const rows = items.map((item) => layoutClinicalRow(sheet, item));
    // A category title stays with its first row.
    makeRoom(sheet, 20 + (rows[0]?.height ?? 0));
    sheet.text.draw(sheet.page, category, { x: LEFT, y: sheet.y - 12, size: SIZE.category, weight: 'bold', color: COLOR.accent });
    sheet.y -= 18;
    for (const row of rows) {
      makeRoom(sheet, row.height);
      drawClinicalRow(sheet, row);
    }
  }
}

function drawSectionTitle(sheet: Sheet, title: string): void {
  sheet.text.draw(sheet.page, title, { x: LEFT, y: sheet.y - SIZE.section - 4, size: SIZE.section, weight: 'bold', color: COLOR.ink });
  sheet.y -= SIZE.section + 12;
}

/** One line that says what the bar's colours and the flags mean, so the page explains itself. */
function drawLegend(sheet: Sheet): void {
  const { page, text, words } = sheet;
  const style: TextStyle = { size: SIZE.small, color: COLOR.muted };
  const baseline = sheet.y - 9;
  let x = LEFT;
  const swatch = (color: typeof COLOR.normal, label: string) => {
    page.drawRectangle({ x, y: baseline - 1, width: 14, height: ROW.barHeight, color });
    text.draw(page, label, { x: x + 18, y: baseline, ...style });
    x += 18 + text.width(label, style) + 14;
  };
  swatch(COLOR.normal, words.normalRange);
  swatch(COLOR.optimal, words.optimalRange);
  drawMarker(page, x + 4, baseline - 1, COLOR.ink);
  text.draw(page, words.yourResult, { x: x + 12, y: baseline, ...style });
  x += 12 + text.width(words.yourResult, style) + 14;
  for (const [flag, label] of [
    ['H', words.aboveNormal],
    ['L', words.belowNormal],
    ['HH', words.critical],
  ] as const) {
    drawFlag(sheet, flag, x, baseline - 3);
    text.draw(page, label, { x: x + COLUMN.flag.width + 4, y: baseline, ...style });
    x += COLUMN.flag.width + 4 + text.width(label, style) + 14;
  }
  sheet.y -= 20;
  drawRule(page, sheet.y);
  sheet.y -= 6;
}

/** A row measured before it is drawn, so a page break can come before it rather than through it. */
interface ClinicalRow {
  item: ClinicalReportItem;
  nameLines: string[];
  /** The value and its unit, each placed on a line of the row: the unit sits beside the value when it fits. */
  valueParts: Array<{ text: string; style: TextStyle; x: number; line: number }>;
  height: number;
}

function layoutClinicalRow({ text, words, format }: Sheet, item: ClinicalReportItem): ClinicalRow {
  const pending = item.status !== 'received';
  const nameLines = wrap(text, item.name, { size: SIZE.body }, COLUMN.name.width);
  const valueParts: ClinicalRow['valueParts'] = [];
  if (pending) {
    const label = item.status === 'not_performed' ? words.notPerformed : words.pending;
    valueParts.push({ text: label, style: { size: SIZE.body, color: COLOR.muted }, x: COLUMN.value.x, line: 0 });
  } else {
    const value = formatValue(item, format);
    const valueStyle: TextStyle = { size: SIZE.value, weight: 'bold', color: COLOR.ink };
    valueParts.push({ text: value, style: valueStyle, x: COLUMN.value.x, line: 0 });
    if (item.unit) {
      const unitStyle: TextStyle = { size: SIZE.unit, color: COLOR.muted };
      const beside = COLUMN.value.x + text.width(`${value} `, valueStyle);
      const fits = beside + text.width(item.unit, unitStyle) <= COLUMN.value.x + COLUMN.value.width;
      valueParts.push({ text: item.unit, style: unitStyle, x: fits ? beside : COLUMN.value.x, line: fits ? 0 : 1 });
    }
    // A value that may still change, or one the lab corrected, says so under it.
    if (item.resultStatus === 'preliminary' || item.resultStatus === 'corrected') {
      const line = Math.max(...valueParts.map((part) => part.line)) + 1;
      valueParts.push({ text: words[item.resultStatus], style: { size: SIZE.unit, color: COLOR.muted }, x: COLUMN.value.x, line });
    }
  }
  const lines = Math.max(nameLines.length, ...valueParts.map((part) => part.line + 1));
  const height = Math.max(pending ? ROW.pendingHeight : ROW.minHeight, ROW.firstBaseline + (lines - 1) * ROW.lineHeight + 10);
  return { item, nameLines, valueParts, height };
}

function drawClinicalRow(sheet: Sheet, row: ClinicalRow): void {
  const { page, text } = sheet;
  const { item } = row;
  const pending = item.status !== 'received';
  const baseline = sheet.y - ROW.firstBaseline;
  for (const [index, line] of row.nameLines.entries()) {
    text.draw(page, line, { x: COLUMN.name.x, y: baseline - index * ROW.lineHeight, size: SIZE.body, color: pending ? COLOR.muted : COLOR.ink });
  }
  for (const part of row.valueParts) {
    text.draw(page, part.text, { x: part.x, y: baseline - part.line * ROW.lineHeight, ...part.style });
  }
  if (!pending && isMarked(item.flag)) drawFlag(sheet, item.flag, COLUMN.flag.x, baseline - 3);
  if (!pending) drawRangeBar(sheet, item, sheet.y - ROW.barTop);
  sheet.y -= row.height;
  drawRule(page, sheet.y, COLOR.track);
}

/** H or L in bold red on a pale pill: the first thing an eye running down the page should catch. */
function drawFlag(sheet: Sheet, flag: Exclude<ReportFlag, 'N'>, x: number, y: number): void {
  const style: TextStyle = { size: 9, weight: 'bold', color: COLOR.flag };
  sheet.page.drawRectangle({ x, y, width: COLUMN.flag.width, height: 13, rx: 3, ry: 3, color: COLOR.flagBackground });
  sheet.text.draw(sheet.page, flag, { x: x + (COLUMN.flag.width - sheet.text.width(flag, style)) / 2, y: y + 3.5, ...style });
}

/**
 * The range bar: a grey track for the whole scale, the normal range on it as a light band, the optimal
 * range as a green band, and a marker at the value (red when flagged), held at the bar's end when the
 * value lies beyond the scale. Below it, the ranges in numbers. No range at all, no bar.
 */
function drawRangeBar(sheet: Sheet, item: ClinicalReportItem, top: number): void {
  const scale = barScale(item.normal, item.optimal);
  if (!scale) return;
  const { page } = sheet;
  const { x, width } = COLUMN.bar;
  const y = top - ROW.barHeight;
  const at = (value: number) => x + (width * (clamp(value, scale.low, scale.high) - scale.low)) / (scale.high - scale.low);
  const band = (range: ReportRange, color: typeof COLOR.normal) => {
    const from = at(range.min ?? scale.low);
    page.drawRectangle({ x: from, y, width: at(range.max ?? scale.high) - from, height: ROW.barHeight, color });
  };
  page.drawRectangle({ x, y, width, height: ROW.barHeight, color: COLOR.track });
  if (item.normal) band(item.normal, COLOR.normal);
  if (item.optimal) band(item.optimal, COLOR.optimal);
  if (item.value !== null) {
    // Kept a little inside the ends, so a clamped marker is still seen whole.
    const markerX = clamp(at(item.value), x + 4, x + width - 4);
    drawMarker(page, markerX, y, isMarked(item.flag) ? COLOR.flag : COLOR.ink);
  }
  const caption = rangeCaption(item, sheet.words, sheet.format);
  if (caption) sheet.text.draw(page, caption, { x, y: y - 10, size: SIZE.small, color: COLOR.muted });
}

/** A line through the bar and a triangle above it pointing down at the value; white edges keep it visible on green. */
function drawMarker(page: PDFPage, x: number, barBottom: number, color: typeof COLOR.ink): void {
  const barTop = barBottom + ROW.barHeight;
  page.drawLine({ start: { x, y: barBottom - 1 }, end: { x, y: barTop }, thickness: 3, color: COLOR.white });
  page.drawLine({ start: { x, y: barBottom - 1 }, end: { x, y: barTop }, thickness: 1.4, color });
  // SVG paths run downwards from their origin: this one is a triangle with its tip on the bar's top edge.
  page.drawSvgPath('M -4 0 L 4 0 L 0 6 Z', { x, y: barTop + 6, color, borderColor: COLOR.white, borderWidth: 0.8 });
}

/**
 * The values the bar spans: every bound given (normal and optimal), widened by a margin on each side so
 * a value just outside still shows where it falls. A range open at the bottom ("up to 130") starts at
 * zero for these non-negative quantities; one open at the top ("at least 40") gets a longer reach above.
 */
export function barScale(normal: ReportRange | null, optimal: ReportRange | null): { low: number; high: number } | null {
  const bounds = [normal?.min, normal?.max, optimal?.min, optimal?.max].filter((bound): bound is number => bound != null && Number.isFinite(bound));
  if (bounds.length === 0) return null;
  const least = Math.min(...bounds);
  const most = Math.max(...bounds);
  const span = most - least || Math.abs(most) || 1;
  let low = least - span * BAR_MARGIN;
  const high = normal?.max == null ? most + span : most + span * BAR_MARGIN;
  if ((normal?.min == null && least > 0) || (low < 0 && least >= 0)) low = 0;
  // Bounds near the limits of a double (only a lab's error sends them) leave no drawable scale: no bar.
  if (!Number.isFinite(low) || !Number.isFinite(high) || high <= low) return null;
  return { low, high };
}

/** "Normal 0.4–4 · optimal 0.5–2.5"; one-sided ranges in words ("up to 130", "at least 40"). */
function rangeCaption(item: ClinicalReportItem, words: ReportWords, format: ReportFormat): string {
  const describe = (label: string, range: ReportRange | null) => {
    if (!range || (range.min === null && range.max === null)) return null;
    if (range.min !== null && range.max !== null) return `${label} ${format.number(range.min)}–${format.number(range.max)}`;
    return range.max !== null ? `${label} ${words.upTo} ${format.number(range.max)}` : `${label} ${words.atLeast} ${format.number(range.min as number)}`;
  };
  return [describe(words.normal, item.normal), describe(words.optimal, item.optimal)].filter(Boolean).join(' · ');
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

// ── Text, numbers and dates ─────────────────────────────────────────────────────────────────────────

function drawRule(page: PDFPage, y: number, color = COLOR.rule): void {
  page.drawLine({ start: { x: LEFT, y }, end: { x: RIGHT, y }, thickness: 0.6, color });
}

/**
 * Breaks text into lines no wider than `width` (the first line `indent` narrower), between words. A word
 * wider than a whole line — a Chinese or Japanese sentence has no spaces — breaks between characters,
 * from where the line stands.
 */
function wrap(text: ReportText, content: string, style: TextStyle, width: number, indent = 0): string[] {
  const lines: string[] = [];
  let line = '';
  let room = width - indent;
  const fits = (candidate: string) => text.width(candidate.trimEnd(), style) <= room;
  const breakLine = () => {
    lines.push(line.trimEnd());
    line = '';
    room = width;
  };
  for (const word of content.replace(/\s+/g, ' ').trim().match(/\S+ ?/g) ?? []) {
    if (fits(line + word)) {
      line += word;
    } else if (text.width(word.trimEnd(), style) <= width) {
      breakLine();
      line = word;
    } else {
      for (const char of word) {
        if (line && !fits(line + char)) breakLine();
        line += char;
      }
    }
  }
  if (line || lines.length === 0) lines.push(line.trimEnd());
  return lines;
}

/** The first line of `content` within `width`, with an ellipsis when some was left off. */
function firstLine(text: ReportText, content: string, style: TextStyle, width: number): string {
  const lines = wrap(text, content, style, width - text.width(' …', style));
  return lines.length > 1 ? `${lines[0]} …` : (lines[0] ?? '');
}

/** "< 0.5", "5.2" ("5,2"): the operator says the lab measured below (or above) what it can quantify. */
function formatValue(item: ClinicalReportItem, format: ReportFormat): string {
  return item.value === null ? '—' : format.value(item.value, item.valueOperator);
}

/**
 * A calendar date as written ("1985-03-14"), or an instant's Berlin date and time (the lab and clinics keep
 * Berlin time, as its couriers do); null when unreadable.
 */
function dateParts(value: string): { year: string; month: number; day: number; time: string | null } | null {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (date) return { year: date[1] as string, month: Number(date[2]), day: Number(date[3]), time: null };
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) return null;
  const berlin = berlinDateTime(instant);
  const [year = '', month, day] = berlin.date.split('-');
  return { year, month: Number(month), day: Number(day), time: berlin.time };
}

/** "14 Mar 1985" or "14.03.1985", as the report's language writes dates. A date we cannot read is shown as given. */
function formatDate(value: string | null, format: ReportFormat): string | null {
  if (!value) return null;
  const parts = dateParts(value);
  return parts && parts.month >= 1 && parts.month <= 12 ? format.date(parts.year, parts.month, parts.day) : value;
}

function formatDateTime(value: string, format: ReportFormat): string {
  const parts = dateParts(value);
  return parts?.time ? format.dateTime(formatDate(value, format)!, parts.time) : (formatDate(value, format) ?? value);
}

const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high);

/** Every string in the input: the characters the report may draw, which decide the fonts it embeds. */
function* everyString(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (value && typeof value === 'object') for (const inner of Object.values(value)) yield* everyString(inner);
}

/** Groups in the order their first test appears, tests in their given order: the catalog's order is kept. */
function byCategory(items: ClinicalReportItem[]): Map<string, ClinicalReportItem[]> {
  const groups = new Map<string, ClinicalReportItem[]>();
  for (const item of items) groups.set(item.category, [...(groups.get(item.category) ?? []), item]);
  return groups;
}
