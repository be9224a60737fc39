/**
 * A patient email as content, before it is written out (issue #52): the greeting, the blocks of the body and
 * the footer. compose.ts fills it once per message; this module writes it as plain text and html.ts as HTML,
 * so the two parts of one email cannot say different things.
 */
import type { MessageLanguage } from './content';

/** A label and its value: "When: Tuesday, 1 December 2026 at 09:00 CET". A value of several lines (an address) is `lines`. */
export interface DetailRow {
  label: string;
  lines: string[];
  /** The value is a link to this address (http or https only). */
  href?: string;
}

export type Block =
  | { kind: 'paragraph'; text: string; /** Shown first, in bold: "Important:". */ lead?: string }
  | { kind: 'details'; rows: DetailRow[] }
  | { kind: 'list'; heading: string; items: string[] }
  | { kind: 'link'; text: string; href: string };

export interface Message {
  language: MessageLanguage;
  subject: string;
  heading: string;
  greeting: string;
  blocks: Block[];
  footer: { lines: string[]; unsubscribe: { text: string; href: string } };
}

/**
 * An address we link to: http or https only. A map link comes from a location's data; anything else
 * (`javascript:`, `data:`) is not a link a patient should be handed.
 */
export function webAddress(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? value : null;
  } catch {
    return null;
  }
}

function blockText(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return block.lead ? `${block.lead} ${block.text}` : block.text;
    case 'details':
      return block.rows.map((row) => `${row.label}: ${row.href ?? row.lines.join(', ')}`).join('\n');
    case 'list':
      return [block.heading, ...block.items.map((item) => `- ${item}`)].join('\n');
    case 'link':
      return `${block.text}: ${block.href}`;
  }
}

/** The plain-text part: paragraphs apart by a blank line, links written out, the footer after the signature dashes. */
export function renderText(message: Message): string {
  const { footer } = message;
  return [message.greeting, ...message.blocks.map(blockText), ['-- ', ...footer.lines, `${footer.unsubscribe.text}: ${footer.unsubscribe.href}`].join('\n')]
    .join('\n\n')
    .concat('\n');
}
