/**
 * The pages of the one-click unsubscribe link (issue #52, RFC 8058, docs/messages.md "Unsubscribe"), in the
 * profile's language: the question (GET /u/{token}: a form that POSTs `List-Unsubscribe=One-Click` to the same
 * address, so a mail scanner that follows the link changes nothing), the answer once it is done, and the page
 * of a link that opens nothing (in all three languages: whose it was is unknown).
 *
 * Plain HTML: no script, no style, no image, nothing from elsewhere (the headers forbid all of it,
 * UNSUBSCRIBE_PAGE_HEADERS); the form has no action, so it posts to the address the page was opened at,
 * wherever the API is mounted. The sender's name is escaped: a clinic typed it.
 */
import type { BinaryBody, Reply } from '../http/responses';
import { TOKEN_ROUTE_HEADERS } from '../http/token-route-headers';
import type { MessageLanguage } from './content';
import { escapeHtml } from './html';

/** Headers of every answer of the two routes, errors included (shared/http/stack.ts `headers`). */
export const UNSUBSCRIBE_PAGE_HEADERS = {
  'Content-Security-Policy': "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  ...TOKEN_ROUTE_HEADERS,
} as const;

interface Words {
  title: string;
  question: (sender: string) => string;
  explanation: string;
  button: string;
  done: string;
  doneText: (sender: string) => string;
  invalid: string;
  invalidText: string;
}

const WORDS: Record<MessageLanguage, Words> = {
  en: {
    title: 'Unsubscribe',
    question: (sender) => `Stop emails about your lab tests from ${sender}?`,
    explanation: 'You will no longer receive confirmations, reminders or notices about your appointments, kits and results by email.',
    button: 'Stop emails',
    done: 'You are unsubscribed',
    doneText: (sender) => `You will no longer receive emails about your lab tests from ${sender}. To receive them again, contact your clinic.`,
    invalid: 'This link is not valid',
    invalidText: 'It may be incomplete, expired or no longer in use. To stop or change the emails you receive, contact your clinic.',
  },
  de: {
    title: 'Abmelden',
    question: (sender) => `Keine E-Mails mehr zu Ihren Labortests von ${sender} erhalten?`,
    explanation: 'Sie erhalten dann keine Bestätigungen, Erinnerungen oder Hinweise zu Ihren Terminen, Testkits und Ergebnissen mehr per E-Mail.',
    button: 'E-Mails abbestellen',
    done: 'Sie sind abgemeldet',
    doneText: (sender) =>
      `Sie erhalten keine E-Mails mehr zu Ihren Labortests von ${sender}. Wenn Sie sie wieder erhalten möchten, wenden Sie sich an Ihre Praxis.`,
    invalid: 'Dieser Link ist nicht gültig',
    invalidText:
      'Er ist möglicherweise unvollständig, abgelaufen oder nicht mehr in Gebrauch. Um E-Mails abzubestellen oder zu ändern, wenden Sie sich an Ihre Praxis.',
  },
  fi: {
    title: 'Peru tilaus',
    question: (sender) => `Lopetetaanko laboratoriotutkimuksiasi koskevat sähköpostit? Lähettäjä: ${sender}`,
    explanation: 'Et enää saa sähköpostitse vahvistuksia, muistutuksia tai ilmoituksia ajanvarauksistasi, näytepakkauksistasi tai tuloksistasi.',
    button: 'Lopeta sähköpostit',
    done: 'Tilaus on peruttu',
    doneText: (sender) =>
      `Et enää saa laboratoriotutkimuksiasi koskevia sähköposteja (lähettäjä: ${sender}). Jos haluat saada ne taas, ota yhteyttä klinikkaasi.`,
    invalid: 'Linkki ei ole voimassa',
    invalidText:
      'Se voi olla puutteellinen, vanhentunut tai poistunut käytöstä. Jos haluat lopettaa tai muuttaa saamiasi sähköposteja, ota yhteyttä klinikkaasi.',
  },
};

const document = (language: MessageLanguage, title: string, body: string) => `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;

const answer = <S extends number>(statusCode: S, languages: string, html: string): Reply<S, BinaryBody> => ({
  statusCode,
  headers: { 'Content-Type': 'text/html; charset=utf-8', 'Content-Language': languages, ...UNSUBSCRIBE_PAGE_HEADERS },
  body: html,
});

/** GET /u/{token}: the question and its button; nothing changes until the button is pressed. */
export function questionPage(language: MessageLanguage, sender: string) {
  const words = WORDS[language];
  const name = escapeHtml(sender);
  return answer(
    200,
    language,
    document(
      language,
      words.title,
      `<h1>${escapeHtml(words.title)}</h1>
<p>${words.question(name)}</p>
<p>${escapeHtml(words.explanation)}</p>
<form method="post">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">${escapeHtml(words.button)}</button>
</form>`,
    ),
  );
}

/** POST /u/{token}: done (and done again: a second POST answers the same). */
export function donePage(language: MessageLanguage, sender: string) {
  const words = WORDS[language];
  return answer(200, language, document(language, words.done, `<h1>${escapeHtml(words.done)}</h1>\n<p>${words.doneText(escapeHtml(sender))}</p>`));
}

/** A token never issued, altered, expired, or of an erased profile: the same page, in the three languages. */
export function invalidLinkPage() {
  const sections = (Object.keys(WORDS) as MessageLanguage[]).map(
    (language) =>
      `<section lang="${language}">\n<h1>${escapeHtml(WORDS[language].invalid)}</h1>\n<p>${escapeHtml(WORDS[language].invalidText)}</p>\n</section>`,
  );
  return answer(404, 'en, de, fi', document('en', WORDS.en.invalid, sections.join('\n')));
}
