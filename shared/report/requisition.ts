/**
 * The requisition form (issue #50): the page that travels with a sample to the lab. Pure, as all of
 * shared/report: data in, PDF bytes out; no I/O, no clock (every date it prints is in its input), no
 * logging (every field is patient data).
 *
 * One A4 page, more when the tests do not fit: the requisition number and the sample's barcode, each as
 * text and as a Code 128 barcode a scanner reads (shared/report/code128.ts); the patient (name, date of
 * birth, sex); when and where the sample was taken; who ordered it; one row per test with its LOINC code,
 * name, specimen, container and least volume. In English, the lab's language, whatever the patient's;
 * dates as ISO 8601, which no lab misreads. Names print in their own script (shared/report/fonts.ts).
 */
import { PDFDocument, type PDFPage, rgb } from '@cantoo/pdf-lib';
import type { OrderedTest } from '../domain/requisition';
import { wallClockOf } from '../domain/wall-clock';
import { code128Bars, isCode128Text } from './code128';
import { embedReportText, type ReportText, type TextStyle } from './fonts';
import { firstLine, wrap } from './report-text';
import { COLOR, drawRule, FOOTER_BASELINE, LEFT, MARGIN, PAGE_SIZE, RIGHT, SIZE, WIDTH } from './sheet';

export interface RequisitionFormInput {
  serviceName: string;
  requisition: { number: string; createdAt: string };
  /** The sample's barcode, as the draw or the kit's activation recorded it. */
  barcode: string;
  /** What the profile holds; after an erasure every identifier is null and `erased` says why. */
  patient: { name: string | null; birthDate: string | null; sex: 0 | 1 | 2 | null; erased: boolean };
  collection: {
    /** When the sample was taken (a kit: when the patient activated it), a UTC instant. */
    at: string | null;
    /** The location's IANA time zone, printed beside UTC; null for a home kit or a location without one. */
    timeZone: string | null;
    /** The location's name and address lines; null for a home test kit. */
    place: { name: string; address: string[] } | null;
  };
  /** The clinic or partner whose patient this is (its profile group): we hold no ordering physician. */
  orderedBy: { name: string; account: string };
  tests: OrderedTest[];
}

/** A barcode's geometry, in PDF points: ~0.9 pt modules, narrower only when the symbol would not fit its room. */
export const BARCODE = { module: 0.9, quietModules: 10, height: 36 };

/** The module width for a symbol of `modules` in `room` points, its quiet zones (10 modules each side) included. */
export const barcodeModule = (modules: number, room: number): number => Math.min(BARCODE.module, room / (modules + 2 * BARCODE.quietModules));

const TITLE = 'Laboratory requisition';
const HOME_TEST_KIT = 'Home test kit';
const INK = rgb(0, 0, 0);
/** Left of a barcode row: its label and value; the barcode's room (quiet zones included) is the rest. */
const CODE_TEXT_WIDTH = 165;
const CODE_AREA = { x: LEFT + CODE_TEXT_WIDTH + 10, width: RIGHT - (LEFT + CODE_TEXT_WIDTH + 10) };
/** The columns of a test row. */
const COLUMNS = [
  { key: 'loinc', label: 'LOINC', x: LEFT, width: 56 },
  { key: 'name', label: 'Test', x: LEFT + 62, width: 178 },
  { key: 'specimen', label: 'Specimen', x: LEFT + 246, width: 86 },
  { key: 'container', label: 'Container', x: LEFT + 338, width: 118 },
  { key: 'volume', label: 'Min. vol.', x: LEFT + 462, width: WIDTH - 462 },
] as const;
const LINE = 11.5;

interface Form {
  doc: PDFDocument;
  text: ReportText;
  input: RequisitionFormInput;
  page: PDFPage;
  y: number;
}

export async function renderRequisitionForm(input: RequisitionFormInput): Promise<Uint8Array> {
  // No automatic metadata: the creation time would be the server's clock, not a fact of the form.
  const doc = await PDFDocument.create({ updateMetadata: false });
  doc.setTitle(`${TITLE} ${input.requisition.number}`);
  doc.setLanguage('en');
  doc.setCreator(input.serviceName);
  const cells = input.tests.map(testCells);
  // The fonts follow the characters drawn: the input's (a name in any script); the form's own words are
  // English, which Noto Sans always draws.
  const text = await embedReportText(doc, [...everyString(input), ...cells.flat()].join(' '));
  const form: Form = { doc, text, input, page: doc.addPage(PAGE_SIZE), y: PAGE_SIZE[1] - MARGIN.top };

  drawHeader(form);
  drawCodeRow(form, 'Requisition number', input.requisition.number);
  drawCodeRow(form, 'Specimen barcode', input.barcode);
  drawRule(form.page, form.y + 4);
  form.y -= 10;
  drawFields(form, [
    { label: 'Patient', lines: [patientName(input.patient)], x: LEFT, width: WIDTH / 2 - 12 },
    { label: 'Date of birth', lines: [input.patient.birthDate ?? '—'], x: LEFT + WIDTH / 2, width: WIDTH / 4 - 12 },
    { label: 'Sex', lines: [sexOf(input.patient.sex)], x: LEFT + (3 * WIDTH) / 4, width: WIDTH / 4 },
  ]);
  const { collection, orderedBy } = input;
  drawFields(form, [
    { label: 'Collected', lines: collectedLines(collection), x: LEFT, width: WIDTH / 3 - 12 },
    {
      label: 'Place',
      lines: collection.place ? [collection.place.name, ...collection.place.address] : [HOME_TEST_KIT],
      x: LEFT + WIDTH / 3,
      width: WIDTH / 3 - 12,
    },
    { label: 'Ordered by', lines: [orderedBy.name, `account ${orderedBy.account}`], x: LEFT + (2 * WIDTH) / 3, width: WIDTH / 3 },
  ]);
  drawRule(form.page, form.y + 4);
  form.y -= 10;
  drawTests(form, cells);
  drawFooters(form);
  return doc.save();
}

// ── Header and the two barcodes ─────────────────────────────────────────────────────────────────────

function drawHeader(form: Form): void {
  const { page, text, input } = form;
  const top = form.y;
  text.draw(page, input.serviceName, { x: LEFT, y: top - 10, size: SIZE.service, weight: 'bold', color: COLOR.accent });
  const created = `Created ${utcDateTime(input.requisition.createdAt)}`;
  const small: TextStyle = { size: SIZE.small, color: COLOR.muted };
  text.draw(page, created, { x: RIGHT - text.width(created, small), y: top - 10, ...small });
  text.draw(page, TITLE, { x: LEFT, y: top - 38, size: SIZE.title, weight: 'bold', color: COLOR.ink });
  form.y = top - 58;
}

/** A label and its value on the left, the value as a Code 128 barcode on the right with its text beneath. */
function drawCodeRow(form: Form, label: string, value: string): void {
  const { page, text } = form;
  const top = form.y;
  drawLabel(form, label, LEFT, top);
  // 13 pt, smaller for a long barcode (down to 8 pt) so that it stays on one line, wrapped only beyond that.
  const size = Math.max(8, Math.min(13, (13 * CODE_TEXT_WIDTH) / text.width(value, { size: 13, weight: 'bold' })));
  const valueStyle: TextStyle = { size, weight: 'bold', color: COLOR.ink };
  const lines = wrap(text, value, valueStyle, CODE_TEXT_WIDTH);
  for (const [index, line] of lines.entries()) text.draw(page, line, { x: LEFT, y: top - SIZE.label - 17 - index * (size + 2), ...valueStyle });
  let height = SIZE.label + 17 + (lines.length - 1) * (size + 2) + 6;
  if (isCode128Text(value)) {
    const symbol = code128Bars(value);
    const module = barcodeModule(symbol.modules, CODE_AREA.width);
    const left = CODE_AREA.x + BARCODE.quietModules * module;
    const bottom = top - BARCODE.height;
    for (const bar of symbol.bars) page.drawRectangle({ x: left + bar.x * module, y: bottom, width: bar.width * module, height: BARCODE.height, color: INK });
    // The human-readable line under the bars, centred on the symbol, as on a tube label.
    const style: TextStyle = { size: 8.5, color: COLOR.ink };
    const centre = left + (symbol.modules * module) / 2;
    text.draw(page, value, { x: centre - text.width(value, style) / 2, y: bottom - 11, ...style });
    height = Math.max(height, BARCODE.height + 14);
  }
  form.y = top - height - 12;
}

// ── Patient, collection, ordering party ─────────────────────────────────────────────────────────────

interface Field {
  label: string;
  lines: string[];
  x: number;
  width: number;
}

/** A row of labelled values, each wrapped to its column; the row is as tall as its longest. */
function drawFields(form: Form, fields: Field[]): void {
  const style: TextStyle = { size: SIZE.field, color: COLOR.ink };
  const lineHeight = SIZE.field + 3;
  const wrapped = fields.map((field) => field.lines.flatMap((line) => wrap(form.text, line, style, field.width)));
  for (const [index, field] of fields.entries()) {
    drawLabel(form, field.label, field.x, form.y);
    for (const [line, content] of (wrapped[index] ?? []).entries()) {
      form.text.draw(form.page, content, { x: field.x, y: form.y - SIZE.label - 14 - line * lineHeight, ...style });
    }
  }
  const lines = Math.max(...wrapped.map((field) => field.length));
  form.y -= SIZE.label + 14 + (lines - 1) * lineHeight + 14;
}

function drawLabel(form: Form, label: string, x: number, top: number): void {
  form.text.draw(form.page, label.toUpperCase(), { x, y: top - SIZE.label, size: SIZE.label, weight: 'bold', color: COLOR.muted });
}

const patientName = (patient: RequisitionFormInput['patient']) => patient.name ?? (patient.erased ? '— (identifiers erased on request)' : '—');

/** ISO/IEC 5218, as the profile stores it. */
const sexOf = (sex: RequisitionFormInput['patient']['sex']) => (sex === null ? '—' : { 0: 'Not known', 1: 'Male', 2: 'Female' }[sex]);

/** `2026-11-28 09:14 UTC`. */
const utcDateTime = (instant: string) => {
  const { date, time } = wallClockOf(new Date(instant), 'UTC');
  return `${date} ${time} UTC`;
};

/** UTC first (what the lab's systems hold), then the location's own clock, where it has a zone. */
function collectedLines({ at, timeZone, place }: RequisitionFormInput['collection']): string[] {
  if (!at) return ['—'];
  const lines = [utcDateTime(at)];
  if (timeZone) {
    const local = wallClockOf(new Date(at), timeZone);
    lines.push(`${local.date} ${local.time} ${timeZone}`);
  }
  if (!place) lines.push('when the kit was activated');
  return lines;
}

// ── The tests ───────────────────────────────────────────────────────────────────────────────────────

/** A test's cells, in the order of COLUMNS. */
function testCells(test: OrderedTest): string[] {
  const type = test.specimen.type.replaceAll('_', ' ');
  return [test.loinc, test.name, type.charAt(0).toUpperCase() + type.slice(1), test.specimen.container, `${test.specimen.min_volume_ml} mL`];
}

function drawTests(form: Form, cells: string[][]): void {
  const title = `Tests ordered (${cells.length})`;
  form.text.draw(form.page, title, { x: LEFT, y: form.y - SIZE.section, size: SIZE.section, weight: 'bold', color: COLOR.ink });
  form.y -= SIZE.section + 10;
  drawTableHeader(form);
  const style: TextStyle = { size: SIZE.body, color: COLOR.ink };
  for (const row of cells) {
    const wrapped = COLUMNS.map((column, index) => wrap(form.text, row[index] ?? '', style, column.width));
    const height = Math.max(...wrapped.map((lines) => lines.length)) * LINE + 6;
    if (form.y - height < MARGIN.bottom) {
      newPage(form);
      drawTableHeader(form);
    }
    for (const [index, column] of COLUMNS.entries()) {
      for (const [line, content] of (wrapped[index] ?? []).entries()) {
        form.text.draw(form.page, content, { x: column.x, y: form.y - 10 - line * LINE, ...style, ...(index === 0 && { weight: 'bold' as const }) });
      }
    }
    form.y -= height;
    drawRule(form.page, form.y + 2);
  }
}

function drawTableHeader(form: Form): void {
  for (const column of COLUMNS) drawLabel(form, column.label, column.x, form.y);
  form.y -= SIZE.label + 6;
  drawRule(form.page, form.y + 2, COLOR.muted);
}

/** Pages after the first say whose requisition they continue, in case they are read apart. */
function newPage(form: Form): void {
  const { input, text } = form;
  form.page = form.doc.addPage(PAGE_SIZE);
  form.y = PAGE_SIZE[1] - MARGIN.top;
  const style: TextStyle = { size: SIZE.small, color: COLOR.muted };
  const right = `Tests ordered, continued`;
  const who = [`${TITLE} ${input.requisition.number}`, input.patient.name, input.patient.birthDate && `born ${input.patient.birthDate}`]
    .filter(Boolean)
    .join(' · ');
  text.draw(form.page, firstLine(text, who, style, WIDTH - text.width(right, style) - 24), { x: LEFT, y: form.y - SIZE.small, ...style });
  text.draw(form.page, right, { x: RIGHT - text.width(right, style), y: form.y - SIZE.small, ...style });
  drawRule(form.page, form.y - SIZE.small - 6);
  form.y -= SIZE.small + 20;
}

/** Drawn once every page exists, since each says how many there are. */
function drawFooters({ doc, text, input }: Form): void {
  const pages = doc.getPages();
  const style: TextStyle = { size: SIZE.small, color: COLOR.muted };
  const left = `${TITLE} ${input.requisition.number} · ${input.serviceName}`;
  for (const [index, page] of pages.entries()) {
    drawRule(page, FOOTER_BASELINE + 12);
    text.draw(page, left, { x: LEFT, y: FOOTER_BASELINE, ...style });
    const number = `Page ${index + 1} of ${pages.length}`;
    text.draw(page, number, { x: RIGHT - text.width(number, style), y: FOOTER_BASELINE, ...style });
  }
}

/** Every string in the input: the characters the form may draw, which decide the fonts it embeds. */
function* everyString(value: unknown): Generator<string> {
  if (typeof value === 'string') yield value;
  else if (value && typeof value === 'object') for (const inner of Object.values(value)) yield* everyString(inner);
}
