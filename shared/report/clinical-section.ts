/** The results report's blood tests: a row per test with its value, flag and range bar, grouped by category. */
import { type PDFPage } from '@cantoo/pdf-lib';
import { type TextStyle } from './fonts';
import { type ReportFormat, type ReportWords } from './report-language';
import type { ClinicalReportItem, ReportFlag, ReportRange } from './results-report-input';
import { isMarked } from './results-report-input';
import { BAR_MARGIN, COLOR, COLUMN, LEFT, ROW, SIZE, type Sheet, drawRule, drawSectionTitle, makeRoom } from './sheet';
import { clamp, formatValue, wrap } from './report-text';

// ── Blood tests ─────────────────────────────────────────────────────────────────────────────────────

export function drawClinicalSection(sheet: Sheet): void {
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

/** Groups in the order their first test appears, tests in their given order: the catalog's order is kept. */
function byCategory(items: ClinicalReportItem[]): Map<string, ClinicalReportItem[]> {
  const groups = new Map<string, ClinicalReportItem[]>();
  for (const item of items) groups.set(item.category, [...(groups.get(item.category) ?? []), item]);
  return groups;
}
