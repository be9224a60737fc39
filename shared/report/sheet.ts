/**
 * The results report's page: its geometry and colours (PDF points, 1/72 inch; the origin is the bottom-left
 * corner), the sheet a section draws on, a new page when a block does not fit (with its running header), rules
 * and section titles.
 */
import { type PDFDocument, type PDFPage, rgb } from '@cantoo/pdf-lib';
import { type ReportText, type TextStyle } from './fonts';
import { type ReportFormat, type ReportWords } from './report-language';
import type { ResultsReportInput } from './results-report-input';
import { firstLine, formatDate } from './report-text';

// ── Layout, in PDF points (1/72 inch); the origin is the page's bottom-left corner ─────────────────────

export const PAGE_SIZE: [number, number] = [595.28, 841.89]; // A4
export const MARGIN = { left: 42, right: 42, top: 44, bottom: 56 };
export const LEFT = MARGIN.left;
export const RIGHT = PAGE_SIZE[0] - MARGIN.right;
export const WIDTH = RIGHT - LEFT;
export const FOOTER_BASELINE = 30;

/** The columns of a blood-test row: name, value and unit, flag, range bar. */
export const COLUMN = {
  name: { x: LEFT, width: 150 },
  value: { x: LEFT + 160, width: 96 },
  flag: { x: LEFT + 262, width: 16 },
  bar: { x: LEFT + 292, width: RIGHT - (LEFT + 292) },
};
export const ROW = { minHeight: 34, pendingHeight: 22, firstBaseline: 14, lineHeight: 11.5, barTop: 8, barHeight: 8 };
/** How far the bar's scale reaches beyond the ranges, as a share of their span: room to show a value outside. */
export const BAR_MARGIN = 0.25;

export const SIZE = { title: 22, service: 10, section: 13, category: 9.5, label: 7.5, field: 10.5, body: 9.5, value: 10, unit: 8, small: 7.5 };

export const COLOR = {
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

/** Where the next block goes: the current page and the top of its free space. */
export interface Sheet {
  doc: PDFDocument;
  text: ReportText;
  words: ReportWords;
  format: ReportFormat;
  input: ResultsReportInput;
  page: PDFPage;
  y: number;
}

/** Starts a new page when `height` does not fit on this one, so no row is cut by a page end. */
export function makeRoom(sheet: Sheet, height: number): void {
  if (sheet.y - height >= MARGIN.bottom) return;
  sheet.page = sheet.doc.addPage(PAGE_SIZE);
  sheet.y = PAGE_SIZE[1] - MARGIN.top;
  drawRunningHeader(sheet);
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

export function drawSectionTitle(sheet: Sheet, title: string): void {
  sheet.text.draw(sheet.page, title, { x: LEFT, y: sheet.y - SIZE.section - 4, size: SIZE.section, weight: 'bold', color: COLOR.ink });
  sheet.y -= SIZE.section + 12;
}

export function drawRule(page: PDFPage, y: number, color = COLOR.rule): void {
  page.drawLine({ start: { x: LEFT, y }, end: { x: RIGHT, y }, thickness: 0.6, color });
}
