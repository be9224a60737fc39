/**
 * The HTML part of a patient email (issue #52): one simple column, inline styles only (mail clients drop
 * <style> and never should fetch a stylesheet or font), no images, nothing remote, so opening it tells
 * nobody anything. Accessible: `lang` on <html>, a <title>, a heading, a table of label/value rows with
 * row headers, a real list, dark text on white (contrast above 7:1, links above 4.5:1). Every value is
 * escaped: names, places and addresses come from data a clinic typed.
 */
import type { Block, DetailRow, Message } from './message';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text safe inside an element and inside a double-quoted attribute. */
export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (char) => ENTITIES[char] ?? char);

const TEXT = '#1a1a1a';
const MUTED = '#4a4a4a';
const LINK = '#0b57d0';
const P = `margin:0 0 16px 0;`;
const A = `color:${LINK};text-decoration:underline;`;

const link = (href: string, text: string) => `<a href="${escapeHtml(href)}" style="${A}">${escapeHtml(text)}</a>`;

function detailRow(row: DetailRow): string {
  const value = row.href ? link(row.href, row.lines.join(', ')) : row.lines.map(escapeHtml).join('<br>');
  return (
    `<tr><th scope="row" style="text-align:left;vertical-align:top;padding:4px 16px 4px 0;font-weight:bold;">${escapeHtml(row.label)}</th>` +
    `<td style="vertical-align:top;padding:4px 0;">${value}</td></tr>`
  );
}

function blockHtml(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
      return `<p style="${P}">${block.lead ? `<strong>${escapeHtml(block.lead)}</strong> ` : ''}${escapeHtml(block.text)}</p>`;
    case 'details':
      return `<table style="border-collapse:collapse;margin:0 0 16px 0;">${block.rows.map(detailRow).join('')}</table>`;
    case 'list':
      return (
        `<h2 style="font-size:18px;margin:24px 0 8px 0;">${escapeHtml(block.heading)}</h2>` +
        `<ul style="margin:0 0 16px 0;padding-left:24px;">${block.items.map((item) => `<li style="margin:0 0 4px 0;">${escapeHtml(item)}</li>`).join('')}</ul>`
      );
    case 'link':
      return `<p style="${P}">${link(block.href, block.text)}</p>`;
  }
}

export function renderHtml(message: Message): string {
  const { footer } = message;
  return [
    '<!DOCTYPE html>',
    `<html lang="${message.language}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(message.subject)}</title></head>`,
    `<body style="margin:0;padding:0;background-color:#ffffff;color:${TEXT};font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5;">`,
    '<main style="max-width:600px;margin:0 auto;padding:24px;">',
    `<h1 style="font-size:22px;line-height:1.3;margin:0 0 16px 0;">${escapeHtml(message.heading)}</h1>`,
    `<p style="${P}">${escapeHtml(message.greeting)}</p>`,
    ...message.blocks.map(blockHtml),
    `<footer style="border-top:1px solid #cccccc;margin-top:32px;padding-top:16px;font-size:14px;color:${MUTED};">`,
    ...footer.lines.map((line) => `<p style="${P}">${escapeHtml(line)}</p>`),
    `<p style="${P}">${link(footer.unsubscribe.href, footer.unsubscribe.text)}</p>`,
    '</footer>',
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
