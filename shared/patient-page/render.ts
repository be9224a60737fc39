/**
 * The patient's page of one appointment as HTML (issue #53, docs/patient-page.md), rendered on the server from
 * what the use case gathered (./view.ts), in the profile's language, readable without JavaScript: the time in the
 * location's zone (as the emails write it, shared/email/dates.ts), the place, how to prepare, the samples, the
 * state. While the appointment may still change here, the free slots to move it to (grouped by the location's
 * days) and the cancellation, both sent by the one hashed script (./assets.ts). First name, time and place:
 * nothing more of the person, and never a result.
 *
 * Every value from data is escaped (a clinic typed the names and addresses; the patient the first name), and a
 * map link is written only if it is http or https. The pages of a link that opens nothing (404) or no longer
 * (410), and of a page that cannot be shown now (429, 503) or failed (500), say what to do in all three
 * languages, since whose link it was is unknown (or not read).
 */
import { formatAppointmentTime, LOCALES } from '../email/dates';
import { escapeHtml } from '../email/html';
import { PAGE_HEADERS, PAGE_SCRIPT, PAGE_STYLE } from './assets';
import { PAGE_WORDS, type PageWords } from './texts';
import type { LinkErrorPageKind, PatientPageLanguage, PatientPageView, RenderedPage } from './view';

const LANGUAGES = Object.keys(PAGE_WORDS) as PatientPageLanguage[];

/** The map link if it is a web address (http or https), else none: a `javascript:` or `data:` URL is never written. */
function webUrl(value: string | null): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

const lines = (text: string) => text.split(/\r?\n/).map(escapeHtml).join('<br>');

function documentHtml(language: string, title: string, body: string, script: boolean): string {
  return `<!doctype html>
<html lang="${escapeHtml(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
${body}
${script ? `<script>${PAGE_SCRIPT}</script>\n` : ''}</body>
</html>
`;
}

function details(view: PatientPageView, words: PageWords): string {
  const { appointment } = view;
  const map = webUrl(appointment.location.mapUrl);
  const rows: [string, string][] = [
    [words.status, escapeHtml(words.statusWords[view.status])],
    [words.email.when, escapeHtml(formatAppointmentTime(appointment.scheduledAt, appointment.timeZone, view.language))],
    [words.email.where, escapeHtml(appointment.location.name)],
    [words.email.address, lines(appointment.location.address)],
  ];
  if (map) rows.push([words.email.map, `<a href="${escapeHtml(map)}">${escapeHtml(words.email.openMap)}</a>`]);
  if (view.status === 'scheduled' && appointment.specimenCount > 0) rows.push([words.email.specimens, String(appointment.specimenCount)]);
  return `<dl>\n${rows.map(([term, value]) => `<dt>${escapeHtml(term)}</dt><dd>${value}</dd>`).join('\n')}\n</dl>`;
}

/** Fasting first (what a patient most often gets wrong), then the clinic's instructions. Only while it is ahead. */
function preparation(view: PatientPageView, words: PageWords): string {
  const { fasting_hours, instructions } = view.appointment.preparation;
  const items = [...(fasting_hours > 0 ? [words.email.fasting(fasting_hours)] : []), ...instructions];
  if (view.status !== 'scheduled' || items.length === 0) return '';
  return `<section aria-labelledby="preparation-heading">
<h2 id="preparation-heading">${escapeHtml(words.email.preparation)}</h2>
<ul>
${items.map((item) => `<li>${escapeHtml(item)}</li>`).join('\n')}
</ul>
</section>`;
}

/**
 * The free slots as radio buttons, one group per day of the location's calendar, in time order. Fourteen days of
 * a busy location are hundreds of slots: each day folds into a <details> (the first open), so the phone shows a
 * list of days, and each slot is the least markup that stays a labelled radio button.
 */
function slotChoices(view: PatientPageView, words: PageWords): string {
  const { timeZone } = view.appointment;
  const locale = LOCALES[view.language];
  const dayOf = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  const dayLabel = new Intl.DateTimeFormat(locale, { timeZone, weekday: 'long', day: 'numeric', month: 'long' });
  const timeLabel = new Intl.DateTimeFormat(locale, { timeZone, hour: '2-digit', minute: '2-digit' });
  const days = new Map<string, { label: string; slots: string[] }>();
  const sorted = view.slots
    .map((slot) => ({ slot, at: new Date(slot) }))
    .filter(({ at }) => !Number.isNaN(at.getTime()))
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const { slot, at } of sorted) {
    const key = dayOf.format(at);
    const day = days.get(key) ?? { label: dayLabel.format(at), slots: [] };
    day.slots.push(`<label><input type="radio" name="scheduled_at" value="${escapeHtml(slot)}"> ${escapeHtml(timeLabel.format(at))}</label>`);
    days.set(key, day);
  }
  return [...days.values()]
    .map(
      (day, index) =>
        `<details${index === 0 ? ' open' : ''}><summary id="day-${index}">${escapeHtml(day.label)} <span class="count">(${escapeHtml(words.move.count(day.slots.length))})</span></summary>\n` +
        `<div class="slots" role="group" aria-labelledby="day-${index}">\n${day.slots.join('\n')}\n</div></details>`,
    )
    .join('\n');
}

/** Move and cancel: hidden until the script shows them (without it they could not send anything). */
function actions(view: PatientPageView, words: PageWords): string {
  const sender = escapeHtml(view.senderName);
  const place = escapeHtml(view.appointment.location.name);
  const move =
    view.slots.length === 0
      ? `<p>${words.move.none(sender)}</p>`
      : `<p>${words.move.intro(place)}</p>
<form id="move-form" novalidate>
${slotChoices(view, words)}
<button type="submit">${escapeHtml(words.move.button)}</button>
<p id="move-message" class="message" aria-live="polite"></p>
</form>`;
  return `<noscript><p class="closed">${words.noScript(sender)}</p></noscript>
<section aria-labelledby="move-heading" data-needs-script hidden>
<h2 id="move-heading">${escapeHtml(words.move.heading)}</h2>
${move}
</section>
<section aria-labelledby="cancel-heading" data-needs-script hidden>
<h2 id="cancel-heading">${escapeHtml(words.cancel.heading)}</h2>
<form id="cancel-form" novalidate>
<label for="cancel-reason">${escapeHtml(words.cancel.reason)}</label>
<textarea id="cancel-reason" name="reason" maxlength="500" rows="3" aria-describedby="cancel-reason-hint"></textarea>
<p id="cancel-reason-hint" class="hint">${escapeHtml(words.cancel.reasonHint)}</p>
<button type="button" id="cancel-start" class="danger">${escapeHtml(words.cancel.button)}</button>
<div id="cancel-confirm" hidden>
<p id="cancel-question" tabindex="-1"><strong>${escapeHtml(words.cancel.question)}</strong></p>
<button type="submit" class="danger">${escapeHtml(words.cancel.yes)}</button>
<button type="button" id="cancel-keep" class="secondary">${escapeHtml(words.cancel.no)}</button>
</div>
<p id="cancel-message" class="message" aria-live="polite"></p>
</form>
</section>`;
}

/** What the page says in place of the actions: too close to change here, or a state that changes no more. */
function closed(view: PatientPageView, words: PageWords): string {
  if (view.status === 'scheduled') return view.closedReason === 'too_close' ? `<p class="closed">${escapeHtml(words.tooClose)}</p>` : '';
  return `<p>${words.readOnly[view.status](escapeHtml(view.senderName))}</p>`;
}

/** The appointment's page (200), in the view's language; the actions only when `changeable`. */
export function renderPatientPage(view: PatientPageView): RenderedPage {
  const words = PAGE_WORDS[view.language];
  const sender = escapeHtml(view.senderName);
  const changeable = view.changeable && view.status === 'scheduled';
  const texts = changeable
    ? ` ${Object.entries({
        working: words.answers.working,
        'choose-first': words.answers.chooseFirst,
        conflict: words.answers.conflict,
        invalid: words.answers.invalid,
        'too-many': words.answers.tooMany,
        gone: words.answers.gone,
        other: words.answers.other,
        moved: words.move.moved,
      })
        .map(([name, text]) => `data-${name}="${escapeHtml(text)}"`)
        .join(' ')}`
    : '';
  const body = `<header>
<p>${sender}</p>
</header>
<main${texts}>
<h1>${escapeHtml(words.heading[view.status])}</h1>
${changeable ? '<p id="notice" class="notice" role="status"></p>\n' : ''}<p>${escapeHtml(words.email.greeting(view.firstName))}</p>
${details(view, words)}
${preparation(view, words)}
${changeable ? actions(view, words) : closed(view, words)}
</main>
<footer>
<p>${words.footer.from(sender)}</p>
<p>${escapeHtml(words.footer.validUntil(formatAppointmentTime(view.expiresAt, view.appointment.timeZone, view.language)))}</p>
<p>${escapeHtml(words.footer.keepPrivate)}</p>
</footer>`;
  return {
    html: documentHtml(view.language, `${words.title} – ${view.senderName}`, body, changeable),
    headers: { ...PAGE_HEADERS, 'Content-Language': view.language },
  };
}

/** The page of a link that opens nothing (404: unknown or altered) or no longer (410: expired), in en, de and fi. */
const LINK_ERROR_WORDS: Record<LinkErrorPageKind, (words: PageWords['linkError']) => [heading: string, text: string]> = {
  not_found: (words) => [words.notFound, words.notFoundText],
  expired: (words) => [words.expired, words.expiredText],
  busy: (words) => [words.busy, words.busyText],
  failed: (words) => [words.failed, words.failedText],
};

export function renderLinkErrorPage(kind: LinkErrorPageKind): RenderedPage {
  const sections = LANGUAGES.map((language) => {
    const [heading, text] = LINK_ERROR_WORDS[kind](PAGE_WORDS[language].linkError);
    const tag = language === 'en' ? 'h1' : 'h2';
    return `<section lang="${language}">\n<${tag}>${escapeHtml(heading)}</${tag}>\n<p>${escapeHtml(text)}</p>\n</section>`;
  });
  const [title] = LINK_ERROR_WORDS[kind](PAGE_WORDS.en.linkError);
  return {
    html: documentHtml('en', title, `<main>\n${sections.join('\n')}\n</main>`, false),
    headers: { ...PAGE_HEADERS, 'Content-Language': LANGUAGES.join(', ') },
  };
}
