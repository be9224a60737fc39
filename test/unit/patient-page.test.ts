/**
 * The patient's page as HTML (issue #53, shared/patient-page/render.ts): the profile's language, times in the
 * location's zone, every value escaped, nothing of the person beyond the first name, a CSP whose hashes are
 * those of the inline script and style as the HTML carries them, nothing remote, actions only while the
 * appointment may change here, and the 404/410 pages in all three languages. The browser test
 * (test/e2e/patient-page.test.ts) proves the same page runs under that CSP.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PATIENT_CHANGES_PER_DAY, secondsToNextDay } from '../../shared/domain/patient-link';
import { renderLinkErrorPage, renderPatientPage } from '../../shared/patient-page/render';
import type { PatientPageLanguage, PatientPageStatus, PatientPageView } from '../../shared/patient-page/view';

const LANGUAGES: PatientPageLanguage[] = ['en', 'de', 'fi'];

const view = (change: Partial<PatientPageView> = {}): PatientPageView => ({
  language: 'en',
  firstName: 'Aino',
  senderName: 'Praxis Sonnenschein',
  status: 'scheduled',
  appointment: {
    scheduledAt: '2026-12-01T08:00:00Z',
    endsAt: '2026-12-01T08:15:00Z',
    timeZone: 'Europe/Berlin',
    location: { name: 'Blutabnahme Mitte', address: 'Marktstraße 1\n10115 Berlin', mapUrl: 'https://maps.example/place?id=7&z=3' },
    preparation: { fasting_hours: 12, instructions: ['Bring your insurance card'] },
    specimenCount: 3,
  },
  changeable: true,
  slots: ['2026-12-01T09:00:00Z', '2026-12-01T09:15:00Z', '2026-12-02T23:30:00Z'],
  expiresAt: '2026-12-01T08:15:00Z',
  ...change,
});

const withAppointment = (change: Partial<PatientPageView['appointment']>, rest: Partial<PatientPageView> = {}) =>
  view({ appointment: { ...view().appointment, ...change }, ...rest });

/** The text a reader sees: tags dropped, the entities this renderer writes decoded. */
const visibleText = (html: string) =>
  html
    .replace(/<(script|style)>[\s\S]*?<\/\1>/g, '')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ');

const inline = (html: string, tag: 'script' | 'style') => [...html.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((match) => match[1]!);
const hashOf = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
const directive = (csp: string, name: string) =>
  csp
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${name} `));

describe('renderPatientPage', () => {
  it.each(LANGUAGES)('sets <html lang> and Content-Language to the view language (%s)', (language) => {
    const page = renderPatientPage(view({ language }));
    expect(page.html).toContain(`<html lang="${language}">`);
    expect(page.headers['Content-Language']).toBe(language);
  });

  it('writes the page in the view language', () => {
    expect(visibleText(renderPatientPage(view({ language: 'de' })).html)).toContain('Meinen Termin verschieben');
    expect(visibleText(renderPatientPage(view({ language: 'fi' })).html)).toContain('Siirrä aikani');
    expect(visibleText(renderPatientPage(view({ language: 'en' })).html)).toContain('Move my appointment');
  });

  it("shows the appointment's time in the location's time zone, as each language writes it", () => {
    expect(visibleText(renderPatientPage(view()).html)).toContain('Tuesday, 1 December 2026 at 09:00 CET');
    expect(visibleText(renderPatientPage(view({ language: 'de' })).html)).toContain('Dienstag, 1. Dezember 2026 um 09:00 MEZ');
    const helsinki = withAppointment({ timeZone: 'Europe/Helsinki' }, { language: 'fi' });
    expect(visibleText(renderPatientPage(helsinki).html)).toContain('tiistaina 1. joulukuuta 2026 klo 10.00');
  });

  it("groups the free slots by the location's days, at the location's local times, the first day open", () => {
    const html = renderPatientPage(view()).html;
    const days = [...html.matchAll(/<details( open)?><summary id="(day-\d)">([^<]*) <span class="count">\(([^)]*)\)<\/span><\/summary>/g)].map((match) =>
      match.slice(1),
    );
    // 23:30 UTC on 2 December is 00:30 on 3 December in Berlin.
    expect(days).toEqual([
      [' open', 'day-0', 'Tuesday 1 December', '2 times'],
      [undefined, 'day-1', 'Thursday 3 December', '1 time'],
    ]);
    expect(html).toContain('<div class="slots" role="group" aria-labelledby="day-0">');
    expect(html).toContain('<label><input type="radio" name="scheduled_at" value="2026-12-01T09:15:00Z"> 10:15</label>');
    expect(html).toContain('<label><input type="radio" name="scheduled_at" value="2026-12-02T23:30:00Z"> 00:30</label>');
  });

  it('greets the patient by first name, and without a name when there is none', () => {
    expect(visibleText(renderPatientPage(view()).html)).toContain('Hello Aino,');
    expect(visibleText(renderPatientPage(view({ firstName: null })).html)).toContain('Hello,');
  });

  it('names the location, its address line by line and its map link, and who the page is from', () => {
    const html = renderPatientPage(view()).html;
    expect(html).toContain('Marktstraße 1<br>10115 Berlin');
    expect(html).toContain('<a href="https://maps.example/place?id=7&amp;z=3">Open in a map</a>');
    expect(visibleText(html)).toContain('Blutabnahme Mitte');
    expect(visibleText(html)).toContain('This page is provided by Praxis Sonnenschein.');
  });

  it('writes a map link only when it is http or https', () => {
    for (const mapUrl of ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'not a url', null]) {
      const html = renderPatientPage(withAppointment({ location: { ...view().appointment.location, mapUrl } })).html;
      expect(html, String(mapUrl)).not.toContain('Open in a map');
      expect(html, String(mapUrl)).not.toMatch(/javascript:|data:text/);
    }
  });

  it('lists the fasting hours first, then the instructions, and says how many samples', () => {
    const text = visibleText(renderPatientPage(view()).html);
    expect(text).toContain('Do not eat for 12 hours before your appointment. Bring your insurance card');
    expect(text).toContain('Samples to be taken 3');
  });

  it('states the status in words', () => {
    expect(visibleText(renderPatientPage(view()).html)).toContain('Status Booked');
    expect(visibleText(renderPatientPage(view({ status: 'cancelled', changeable: false, slots: [] })).html)).toContain('Status Cancelled');
  });

  it('escapes every value that comes from data', () => {
    const evil = '<script>alert("x")</script>&\'';
    const html = renderPatientPage(
      view({
        firstName: evil,
        senderName: evil,
        appointment: {
          ...view().appointment,
          location: { name: evil, address: evil, mapUrl: `https://maps.example/?q="><script>` },
          preparation: { fasting_hours: 0, instructions: [evil] },
        },
        slots: ['2026-12-01T09:00:00Z"><script>x</script>'],
      }),
    ).html;
    expect(inline(html, 'script')).toHaveLength(1);
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('"><script>');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
  });

  it('shows nothing of the person but the first name: no email address, no last name', () => {
    const html = renderPatientPage(view()).html;
    expect(html).not.toContain('@');
    expect(visibleText(html)).not.toMatch(/last name|birth|email/i);
  });

  it('allows its one inline script and one inline style by exactly their SHA-256 hashes, recomputed from the HTML', () => {
    const page = renderPatientPage(view());
    const [script, style] = [inline(page.html, 'script'), inline(page.html, 'style')];
    expect(script).toHaveLength(1);
    expect(style).toHaveLength(1);
    const csp = page.headers['Content-Security-Policy']!;
    expect(directive(csp, 'script-src')).toBe(`script-src ${hashOf(script[0]!)}`);
    expect(directive(csp, 'style-src')).toBe(`style-src ${hashOf(style[0]!)}`);
  });

  it('answers with the strict CSP and the other security headers', () => {
    const { headers } = renderPatientPage(view());
    expect(headers['Content-Security-Policy']).toMatch(
      /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/]{43}='; style-src 'sha256-[A-Za-z0-9+/]{43}='; img-src 'none'; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'$/,
    );
    expect(headers).toMatchObject({
      'Content-Type': 'text/html; charset=utf-8',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
      'Cache-Control': 'no-store',
      'X-Robots-Tag': 'noindex',
      'X-Content-Type-Options': 'nosniff',
    });
  });

  it('has no inline event handler or style attribute (the CSP would block them)', () => {
    const html = renderPatientPage(view()).html;
    expect(html).not.toMatch(/\son[a-z]+=/i);
    expect(html).not.toMatch(/\sstyle=/i);
  });

  it('loads nothing remote: no src, no stylesheet link, no URL but the map link', () => {
    const html = renderPatientPage(view()).html;
    expect(html).not.toMatch(/\ssrc=|<link|@import|url\(/i);
    expect([...html.matchAll(/https?:\/\/[^\s"'<]+/g)].map((match) => match[0])).toEqual(['https://maps.example/place?id=7&amp;z=3']);
  });

  it("posts to the page's own address and never writes a token into the script", () => {
    const [script] = inline(renderPatientPage(view()).html, 'script');
    expect(script).toContain('location.pathname');
    expect(script).toContain("credentials: 'omit'");
    expect(script).toContain("'Content-Type': 'application/json'");
    expect(script).not.toMatch(/\/p\/|https?:/);
  });

  it('offers a reason field of at most 500 characters with a label, and a confirmation step before cancelling', () => {
    const html = renderPatientPage(view()).html;
    expect(html).toContain('<label for="cancel-reason">Reason (optional)</label>');
    expect(html).toMatch(/<textarea id="cancel-reason" name="reason" maxlength="500"/);
    expect(html).toMatch(/<button type="button" id="cancel-start"[^>]*>Cancel my appointment<\/button>\n<div id="cancel-confirm" hidden>/);
  });

  it('says so when there is no other free time, and offers no move button', () => {
    const html = renderPatientPage(view({ slots: [] })).html;
    expect(html).not.toContain('Move my appointment');
    expect(visibleText(html)).toContain('There is no other free time at this place in the next 14 days.');
    expect(html).toContain('Cancel my appointment');
  });

  it.each<PatientPageStatus>(['cancelled', 'blood_drawn', 'in_transit', 'completed'])(
    'shows a %s appointment read-only: no form, no button, no script',
    (status) => {
      const html = renderPatientPage(view({ status, changeable: false, slots: [] })).html;
      expect(html).not.toMatch(/<form|<button|<input|<textarea|<script/);
      expect(visibleText(html)).not.toContain('How to prepare');
    },
  );

  it('ignores changeable on an appointment that is not scheduled', () => {
    expect(renderPatientPage(view({ status: 'cancelled' })).html).not.toMatch(/<form|<script/);
  });

  it.each<[PatientPageLanguage, string]>([
    ['en', 'can no longer be changed here. To move or cancel it, please call the clinic.'],
    ['de', 'kann hier nicht mehr geändert werden. Um ihn zu verschieben oder abzusagen, rufen Sie bitte die Praxis an.'],
    ['fi', 'joten sitä ei voi enää muuttaa täällä. Jos haluat siirtää tai perua sen, soita klinikalle.'],
  ])('tells the patient to call the clinic when the appointment is too close to change (%s)', (language, sentence) => {
    const html = renderPatientPage(view({ language, changeable: false, closedReason: 'too_close', slots: [] })).html;
    expect(visibleText(html)).toContain(sentence);
    expect(html).not.toMatch(/<form|<button|<script/);
  });

  it('is readable without JavaScript: the details are in the HTML, and a <noscript> explains the hidden actions', () => {
    const html = renderPatientPage(view()).html;
    expect(html).toMatch(/<noscript><p class="closed">To move or cancel your appointment on this page, turn on JavaScript/);
    expect(html.match(/<section aria-labelledby="(move|cancel)-heading" data-needs-script hidden>/g)).toHaveLength(2);
  });

  it('gives the page its landmarks, one h1 and a viewport for narrow screens', () => {
    const html = renderPatientPage(view()).html;
    for (const tag of ['<header>', '<main', '<footer>']) expect(html).toContain(tag);
    expect(html.match(/<h1>/g)).toHaveLength(1);
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  });
});

describe('renderLinkErrorPage', () => {
  it.each<['not_found' | 'expired' | 'busy' | 'failed', string[]]>([
    ['not_found', ['This link is not valid', 'Dieser Link ist nicht gültig', 'Linkki ei ole voimassa']],
    ['expired', ['This link has expired', 'Dieser Link ist abgelaufen', 'Linkki on vanhentunut']],
    ['busy', ['This page cannot be shown right now', 'Diese Seite kann gerade nicht angezeigt werden', 'Sivua ei voida näyttää juuri nyt']],
    ['failed', ['Something went wrong', 'Etwas ist schiefgelaufen', 'Jokin meni vikaan']],
  ])('says %s in English, German and Finnish, each in a section with its lang', (kind, headings) => {
    const { html, headers } = renderLinkErrorPage(kind);
    for (const heading of headings) expect(visibleText(html)).toContain(heading);
    for (const language of LANGUAGES) expect(html).toContain(`<section lang="${language}">`);
    expect(headers['Content-Language']).toBe('en, de, fi');
  });

  it.each(['not_found', 'expired'] as const)('tells what to do (%s): the latest email, or the clinic', (kind) => {
    const text = visibleText(renderLinkErrorPage(kind).html);
    expect(text).toContain('latest email');
    expect(text).toContain('contact your clinic');
    expect(text).toContain('wenden Sie sich an Ihre Praxis');
  });

  it('answers with the same security headers as the page, and a CSP that matches its inline style', () => {
    const { html, headers } = renderLinkErrorPage('expired');
    expect(headers['Content-Security-Policy']).toBe(renderPatientPage(view()).headers['Content-Security-Policy']);
    expect(directive(headers['Content-Security-Policy']!, 'style-src')).toBe(`style-src ${hashOf(inline(html, 'style')[0]!)}`);
    expect(inline(html, 'script')).toEqual([]);
    expect(headers['X-Frame-Options']).toBe('DENY');
  });

  it.each(['not_found', 'expired', 'busy', 'failed'] as const)('carries no stack trace, no personal data and nothing remote (%s)', (kind) => {
    const { html } = renderLinkErrorPage(kind);
    expect(html).not.toMatch(/Error|at .*\.ts|@|https?:\/\//);
  });

  it('tells a busy page to try again in a minute, a failed one later or the clinic', () => {
    expect(visibleText(renderLinkErrorPage('busy').html)).toContain('try again in a minute');
    expect(visibleText(renderLinkErrorPage('failed').html)).toContain('contact your clinic');
  });
});

describe('the changes per day', () => {
  it('are 5 per appointment, and a refusal says to retry at the next UTC day', () => {
    expect(PATIENT_CHANGES_PER_DAY).toBe(5);
    expect(secondsToNextDay(new Date('2026-12-01T23:59:30.000Z'))).toBe(30);
    expect(secondsToNextDay(new Date('2026-12-01T00:00:00.000Z'))).toBe(86_400);
    expect(secondsToNextDay(new Date('2026-12-01T23:59:59.999Z'))).toBe(1);
  });
});
