/**
 * The patient's page's one inline script and one inline style (issue #53, docs/patient-page.md), and the headers
 * every page of the link answers with. Inline, so the page loads nothing else (one request, nothing remote);
 * allowed by their SHA-256 hashes in the Content-Security-Policy, computed once when the module loads, so no
 * other script or style (an injected one, an attribute, a browser extension's) can run or apply.
 *
 * The script holds no token and no words: it posts to the page's own address plus `/reschedule` or `/cancel`
 * (whatever the token and wherever the API is mounted) and reads what to say from the page's `data-` attributes,
 * so one script, one hash, serves every language. Without it the page still shows everything; only the two
 * actions need it (their sections are `hidden` until the script shows them, and a <noscript> says so).
 */
import { createHash } from 'node:crypto';

/**
 * Shows the actions; sends a change as JSON (no cookies, no form: the JSON endpoints refuse form content types
 * and other sites' origins); on success reloads the page, so the page shows what the server now holds; on a
 * refusal says why in the form's aria-live region.
 */
export const PAGE_SCRIPT = `(() => {
  const main = document.querySelector('main');
  if (!main) return;
  const say = (name) => main.getAttribute('data-' + name) || '';
  const base = location.pathname.replace(/\\/+$/, '');
  const notice = document.getElementById('notice');
  try {
    if (notice && sessionStorage.getItem('patient-page-notice') === 'moved') notice.textContent = say('moved');
    sessionStorage.removeItem('patient-page-notice');
  } catch (error) {}
  document.querySelectorAll('[data-needs-script]').forEach((element) => { element.hidden = false; });
  const refusal = (status) =>
    status === 409 ? say('conflict') : status === 400 ? say('invalid') : status === 429 ? say('too-many')
      : status === 404 || status === 410 ? say('gone') : say('other');
  const send = (action, body, form, live, before) => {
    const buttons = form.querySelectorAll('button');
    const enable = (on) => buttons.forEach((button) => { button.disabled = !on; });
    enable(false);
    live.textContent = say('working');
    fetch(base + '/' + action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
    }).then(
      (response) => {
        if (response.ok) {
          before();
          // The answer read to its end before the reload, so the browser does not abort it.
          const reload = () => location.reload();
          return response.text().then(reload, reload);
        }
        live.textContent = refusal(response.status);
        enable(true);
      },
      () => {
        live.textContent = say('other');
        enable(true);
      },
    );
  };
  const move = document.getElementById('move-form');
  if (move) {
    move.addEventListener('submit', (event) => {
      event.preventDefault();
      const live = document.getElementById('move-message');
      const chosen = move.querySelector('input[name="scheduled_at"]:checked');
      if (!chosen) {
        live.textContent = say('choose-first');
        return;
      }
      send('reschedule', { scheduled_at: chosen.value }, move, live, () => {
        try { sessionStorage.setItem('patient-page-notice', 'moved'); } catch (error) {}
      });
    });
  }
  const cancel = document.getElementById('cancel-form');
  if (cancel) {
    const start = document.getElementById('cancel-start');
    const confirm = document.getElementById('cancel-confirm');
    const question = document.getElementById('cancel-question');
    start.addEventListener('click', () => {
      start.hidden = true;
      confirm.hidden = false;
      question.focus();
    });
    document.getElementById('cancel-keep').addEventListener('click', () => {
      confirm.hidden = true;
      start.hidden = false;
      start.focus();
    });
    cancel.addEventListener('submit', (event) => {
      event.preventDefault();
      if (confirm.hidden) return start.click();
      const reason = cancel.querySelector('textarea').value.trim();
      send('cancel', reason ? { reason } : {}, cancel, document.getElementById('cancel-message'), () => {});
    });
  }
})();`;

/**
 * One column, system fonts, nothing remote. Dark text on white (#1a1a1a: 17:1; links and buttons #0b57d0: 6.4:1;
 * the cancel button #b3261e: 6.5:1), a 3 px focus outline on everything focusable, controls at least 44 px high,
 * and long names and addresses wrapped, so 320–375 px wide screens never scroll sideways.
 */
export const PAGE_STYLE = `*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:#fff;color:#1a1a1a;font:1rem/1.5 system-ui,-apple-system,"Segoe UI",Roboto,Arial,sans-serif}
header,main,footer{max-width:40rem;margin:0 auto;padding:1rem;overflow-wrap:anywhere}
header{border-bottom:1px solid #c4c4c4}
header p{margin:0;font-weight:700}
footer{border-top:1px solid #c4c4c4;color:#4a4a4a;font-size:.9rem}
h1{font-size:1.5rem;line-height:1.25;margin:.5rem 0 1rem}
h2{font-size:1.2rem;line-height:1.3;margin:2rem 0 .5rem}
p,ul,dl{margin:0 0 1rem}
ul{padding-left:1.5rem}
dt{font-weight:700;margin-top:.5rem}
dd{margin:0}
a{color:#0b57d0}
section[lang]+section[lang]{border-top:1px solid #c4c4c4;margin-top:1.5rem}
.notice:empty{display:none}
.notice{background:#e6f4ea;border-left:4px solid #137333;padding:.5rem .75rem;font-weight:700}
.closed{border-left:4px solid #b3261e;padding:.5rem .75rem;background:#fce8e6}
details{border:1px solid #c4c4c4;border-radius:.5rem;margin:0 0 .75rem}
summary{cursor:pointer;font-weight:700;padding:.625rem .75rem;min-height:2.75rem}
.count{font-weight:400;color:#4a4a4a}
.slots{display:flex;flex-wrap:wrap;gap:.5rem;padding:0 .75rem .75rem}
label{display:block;font-weight:700;margin-bottom:.25rem}
.slots label{display:inline-flex;align-items:center;gap:.5rem;min-height:2.75rem;margin:0;padding:.25rem .75rem;border:1px solid #6b6b6b;border-radius:.5rem;font-weight:400;cursor:pointer}
.slots input{margin:0;width:1.25rem;height:1.25rem;accent-color:#0b57d0}
.slots label:has(input:checked){background:#e8f0fe;border-color:#0b57d0;font-weight:700}
textarea{display:block;width:100%;min-height:5rem;font:inherit;padding:.5rem;border:1px solid #6b6b6b;border-radius:.5rem}
.hint{color:#4a4a4a;font-size:.9rem;margin:.25rem 0 1rem}
button{font:inherit;font-weight:700;min-height:2.75rem;padding:.5rem 1rem;margin:.25rem .5rem .25rem 0;border:2px solid #0b57d0;border-radius:.5rem;background:#0b57d0;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#0b57d0}
button.danger{background:#b3261e;border-color:#b3261e}
button:disabled{cursor:wait}
.message{font-weight:700;margin:.5rem 0 0}
:focus-visible{outline:3px solid #1a1a1a;outline-offset:2px}
[tabindex="-1"]:focus{outline:none}
[hidden]{display:none!important}
`;

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** Headers of every page of the link (the appointment's page and the 404/410 pages): the CSP names the two hashes. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': [
    "default-src 'none'",
    `script-src ${sha256(PAGE_SCRIPT)}`,
    `style-src ${sha256(PAGE_STYLE)}`,
    "img-src 'none'",
    "connect-src 'self'",
    "form-action 'none'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join('; '),
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Robots-Tag': 'noindex',
  'X-Content-Type-Options': 'nosniff',
});
