/** The results report's text: wrapping to a width, and values and dates as the report's language writes them. */
import { berlinDateTime } from '../domain/calendar';
import { type ReportText, type TextStyle } from './fonts';
import { type ReportFormat } from './report-language';
import type { ClinicalReportItem } from './results-report-input';

// ── Text, numbers and dates ─────────────────────────────────────────────────────────────────────────

/**
 * Breaks text into lines no wider than `width` (the first line `indent` narrower), between words. A word
 * wider than a whole line — a Chinese or Japanese sentence has no spaces — breaks between characters,
 * from where the line stands.
 */
export function wrap(text: ReportText, content: string, style: TextStyle, width: number, indent = 0): string[] {
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
export function firstLine(text: ReportText, content: string, style: TextStyle, width: number): string {
  const lines = wrap(text, content, style, width - text.width(' …', style));
  return lines.length > 1 ? `${lines[0]} …` : (lines[0] ?? '');
}

/** "< 0.5", "5.2" ("5,2"): the operator says the lab measured below (or above) what it can quantify. */
export function formatValue(item: ClinicalReportItem, format: ReportFormat): string {
  return item.value === null ? '—' : format.value(item.value, item.valueOperator);
}

/**
 * A calendar date as written ("1985-03-14"), or an instant's Berlin date and time (the lab and clinics keep
 * Berlin time, as its couriers do); null when unreadable.
 */
export function dateParts(value: string): { year: string; month: number; day: number; time: string | null } | null {
  const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (date) return { year: date[1] as string, month: Number(date[2]), day: Number(date[3]), time: null };
  const instant = new Date(value);
  if (Number.isNaN(instant.getTime())) return null;
  const berlin = berlinDateTime(instant);
  const [year = '', month, day] = berlin.date.split('-');
  return { year, month: Number(month), day: Number(day), time: berlin.time };
}

/** "14 Mar 1985" or "14.03.1985", as the report's language writes dates. A date we cannot read is shown as given. */
export function formatDate(value: string | null, format: ReportFormat): string | null {
  if (!value) return null;
  const parts = dateParts(value);
  return parts && parts.month >= 1 && parts.month <= 12 ? format.date(parts.year, parts.month, parts.day) : value;
}

export function formatDateTime(value: string, format: ReportFormat): string {
  const parts = dateParts(value);
  return parts?.time ? format.dateTime(formatDate(value, format)!, parts.time) : (formatDate(value, format) ?? value);
}

export const clamp = (value: number, low: number, high: number) => Math.min(Math.max(value, low), high);
