/**
 * Every word of the patient's page (issue #53, docs/patient-page.md), in each language a profile may have: one
 * typed catalogue, so a missing sentence is a type error. The words the emails already say (when, where, how to
 * prepare, the greeting) come from the emails' catalogue (shared/email/texts.ts), so the page and the email that
 * carried its link say the same thing the same way. English and German address the reader formally, Finnish as
 * Finnish services do (sinä). Names from data (the sender, a place) are never inflected.
 */
import type { MessageLanguage } from '../email/content';
import { EMAIL_WORDS, type EmailWords } from '../email/texts';
import type { PatientPageStatus } from './view';

export interface PageWords {
  email: EmailWords;
  title: string;
  /** The heading of the page, by the appointment's state. */
  heading: Record<PatientPageStatus, string>;
  status: string;
  /** The state in words (the status row). */
  statusWords: Record<PatientPageStatus, string>;
  /** What a read-only state means for the patient. */
  readOnly: Record<Exclude<PatientPageStatus, 'scheduled'>, (sender: string) => string>;
  tooClose: string;
  noScript: (sender: string) => string;
  move: {
    heading: string;
    intro: (place: string) => string;
    count: (slots: number) => string;
    none: (sender: string) => string;
    button: string;
    moved: string;
  };
  cancel: { heading: string; reason: string; reasonHint: string; button: string; question: string; yes: string; no: string };
  /** What the page says while a change is sent, and when it is refused (by the answer's status). */
  answers: { working: string; chooseFirst: string; conflict: string; invalid: string; tooMany: string; gone: string; other: string };
  footer: { from: (sender: string) => string; validUntil: (when: string) => string; keepPrivate: string };
  /**
   * The page of a link that opens nothing (404) or no longer (410); and of a page that cannot be shown now (429
   * the link's rate limit, 503 busy: `busy`) or failed (500: `failed`).
   */
  linkError: {
    notFound: string;
    expired: string;
    notFoundText: string;
    expiredText: string;
    busy: string;
    busyText: string;
    failed: string;
    failedText: string;
  };
}

export const PAGE_WORDS: Record<MessageLanguage, PageWords> = {
  en: {
    email: EMAIL_WORDS.en,
    title: 'Your appointment',
    heading: {
      scheduled: 'Your appointment',
      blood_drawn: 'Your sample has been taken',
      in_transit: 'Your sample has been taken',
      completed: 'Your appointment is complete',
      cancelled: 'Your appointment has been cancelled',
    },
    status: 'Status',
    statusWords: {
      scheduled: 'Booked',
      blood_drawn: 'Sample taken',
      in_transit: 'Sample on its way to the laboratory',
      completed: 'Completed',
      cancelled: 'Cancelled',
    },
    readOnly: {
      cancelled: (sender) => `This appointment has been cancelled. If you would like a new appointment, ${sender} can book one for you.`,
      blood_drawn: (sender) => `Thank you for coming. ${sender} will let you know when your results are ready.`,
      in_transit: (sender) => `Thank you for coming. ${sender} will let you know when your results are ready.`,
      completed: (sender) => `This appointment is complete. ${sender} will let you know about your results.`,
    },
    tooClose: 'Your appointment is less than 2 hours away, so it can no longer be changed here. To move or cancel it, please call the clinic.',
    noScript: (sender) => `To move or cancel your appointment on this page, turn on JavaScript in your browser, or contact ${sender}.`,
    move: {
      heading: 'Move your appointment',
      intro: (place) => `Choose a new time at ${place}. Times are local times there.`,
      count: (slots) => (slots === 1 ? '1 time' : `${slots} times`),
      none: (sender) => `There is no other free time at this place in the next 14 days. To move your appointment, contact ${sender}.`,
      button: 'Move my appointment',
      moved: 'Your appointment has been moved.',
    },
    cancel: {
      heading: 'Cancel your appointment',
      reason: 'Reason (optional)',
      reasonHint: 'Up to 500 characters.',
      button: 'Cancel my appointment',
      question: 'Do you really want to cancel this appointment?',
      yes: 'Yes, cancel it',
      no: 'No, keep it',
    },
    answers: {
      working: 'One moment…',
      chooseFirst: 'Please choose a new time first.',
      conflict:
        'This could not be done: the time may have just been taken, or your appointment can no longer be changed here. Reload the page to see what is possible now.',
      invalid: 'This time cannot be booked. Please choose another one.',
      tooMany: 'Too many attempts. Please try again later, or contact your clinic.',
      gone: 'This link no longer works. Use the link in the latest email about your appointment, or contact the clinic.',
      other: 'Something went wrong. Please try again, or contact the clinic.',
    },
    footer: {
      from: (sender) => `This page is provided by ${sender}.`,
      validUntil: (when) => `This link works until ${when}.`,
      keepPrivate: 'Keep this link to yourself: anyone who has it can see and change this appointment.',
    },
    linkError: {
      notFound: 'This link is not valid',
      expired: 'This link has expired',
      notFoundText: 'It may be incomplete or mistyped. Open the link in the latest email about your appointment, or contact your clinic.',
      expiredText:
        'A link to an appointment works until the appointment is over, and for 30 days at most. Open the link in the latest email about your appointment, or contact your clinic.',
      busy: 'This page cannot be shown right now',
      busyText: 'It was opened too often in a short time, or the service is briefly busy. Please try again in a minute.',
      failed: 'Something went wrong',
      failedText: 'The page could not be shown. Please try again later, or contact your clinic.',
    },
  },
  de: {
    email: EMAIL_WORDS.de,
    title: 'Ihr Termin',
    heading: {
      scheduled: 'Ihr Termin',
      blood_drawn: 'Ihre Probe wurde entnommen',
      in_transit: 'Ihre Probe wurde entnommen',
      completed: 'Ihr Termin ist abgeschlossen',
      cancelled: 'Ihr Termin wurde abgesagt',
    },
    status: 'Status',
    statusWords: {
      scheduled: 'Gebucht',
      blood_drawn: 'Probe entnommen',
      in_transit: 'Probe auf dem Weg ins Labor',
      completed: 'Abgeschlossen',
      cancelled: 'Abgesagt',
    },
    readOnly: {
      cancelled: (sender) => `Dieser Termin wurde abgesagt. Wenn Sie einen neuen Termin möchten, bucht ${sender} ihn gerne für Sie.`,
      blood_drawn: (sender) => `Danke für Ihren Besuch. ${sender} informiert Sie, sobald Ihre Ergebnisse vorliegen.`,
      in_transit: (sender) => `Danke für Ihren Besuch. ${sender} informiert Sie, sobald Ihre Ergebnisse vorliegen.`,
      completed: (sender) => `Dieser Termin ist abgeschlossen. ${sender} informiert Sie über Ihre Ergebnisse.`,
    },
    tooClose:
      'Ihr Termin ist weniger als 2 Stunden entfernt und kann hier nicht mehr geändert werden. Um ihn zu verschieben oder abzusagen, rufen Sie bitte die Praxis an.',
    noScript: (sender) =>
      `Um Ihren Termin auf dieser Seite zu verschieben oder abzusagen, aktivieren Sie JavaScript in Ihrem Browser, oder wenden Sie sich an ${sender}.`,
    move: {
      heading: 'Termin verschieben',
      intro: (place) => `Wählen Sie eine neue Uhrzeit bei ${place}. Alle Zeiten sind Ortszeit.`,
      count: (slots) => (slots === 1 ? '1 Zeit' : `${slots} Zeiten`),
      none: (sender) => `An diesem Ort ist in den nächsten 14 Tagen keine andere Zeit frei. Um Ihren Termin zu verschieben, wenden Sie sich an ${sender}.`,
      button: 'Meinen Termin verschieben',
      moved: 'Ihr Termin wurde verschoben.',
    },
    cancel: {
      heading: 'Termin absagen',
      reason: 'Grund (optional)',
      reasonHint: 'Bis zu 500 Zeichen.',
      button: 'Meinen Termin absagen',
      question: 'Möchten Sie diesen Termin wirklich absagen?',
      yes: 'Ja, Termin absagen',
      no: 'Nein, Termin behalten',
    },
    answers: {
      working: 'Einen Moment …',
      chooseFirst: 'Bitte wählen Sie zuerst eine neue Uhrzeit.',
      conflict:
        'Das war nicht möglich: Die Zeit wurde vielleicht gerade vergeben, oder Ihr Termin kann hier nicht mehr geändert werden. Laden Sie die Seite neu, um zu sehen, was jetzt möglich ist.',
      invalid: 'Diese Zeit kann nicht gebucht werden. Bitte wählen Sie eine andere.',
      tooMany: 'Zu viele Versuche. Bitte versuchen Sie es später erneut, oder wenden Sie sich an Ihre Praxis.',
      gone: 'Dieser Link funktioniert nicht mehr. Verwenden Sie den Link aus der neuesten E-Mail zu Ihrem Termin, oder wenden Sie sich an die Praxis.',
      other: 'Etwas ist schiefgegangen. Bitte versuchen Sie es erneut, oder wenden Sie sich an die Praxis.',
    },
    footer: {
      from: (sender) => `Diese Seite wird von ${sender} bereitgestellt.`,
      validUntil: (when) => `Dieser Link gilt bis ${when}.`,
      keepPrivate: 'Geben Sie diesen Link nicht weiter: Wer ihn hat, kann diesen Termin sehen und ändern.',
    },
    linkError: {
      notFound: 'Dieser Link ist nicht gültig',
      expired: 'Dieser Link ist abgelaufen',
      notFoundText:
        'Er ist möglicherweise unvollständig oder falsch abgetippt. Öffnen Sie den Link aus der neuesten E-Mail zu Ihrem Termin, oder wenden Sie sich an Ihre Praxis.',
      expiredText:
        'Ein Link zu einem Termin gilt bis zum Ende des Termins, höchstens 30 Tage. Öffnen Sie den Link aus der neuesten E-Mail zu Ihrem Termin, oder wenden Sie sich an Ihre Praxis.',
      busy: 'Diese Seite kann gerade nicht angezeigt werden',
      busyText: 'Sie wurde in kurzer Zeit zu oft aufgerufen, oder der Dienst ist kurz ausgelastet. Bitte versuchen Sie es in einer Minute erneut.',
      failed: 'Etwas ist schiefgelaufen',
      failedText: 'Die Seite konnte nicht angezeigt werden. Bitte versuchen Sie es später erneut, oder wenden Sie sich an Ihre Praxis.',
    },
  },
  fi: {
    email: EMAIL_WORDS.fi,
    title: 'Ajanvarauksesi',
    heading: {
      scheduled: 'Ajanvarauksesi',
      blood_drawn: 'Näytteesi on otettu',
      in_transit: 'Näytteesi on otettu',
      completed: 'Käyntisi on valmis',
      cancelled: 'Aikasi on peruttu',
    },
    status: 'Tila',
    statusWords: {
      scheduled: 'Varattu',
      blood_drawn: 'Näyte otettu',
      in_transit: 'Näyte matkalla laboratorioon',
      completed: 'Valmis',
      cancelled: 'Peruttu',
    },
    readOnly: {
      cancelled: (sender) => `Tämä aika on peruttu. Jos haluat uuden ajan, voit varata sen palveluntarjoajaltasi (${sender}).`,
      blood_drawn: (sender) => `Kiitos käynnistäsi. Palveluntarjoajasi (${sender}) kertoo sinulle, kun tuloksesi ovat valmiina.`,
      in_transit: (sender) => `Kiitos käynnistäsi. Palveluntarjoajasi (${sender}) kertoo sinulle, kun tuloksesi ovat valmiina.`,
      completed: (sender) => `Tämä käynti on valmis. Palveluntarjoajasi (${sender}) kertoo sinulle tuloksistasi.`,
    },
    tooClose: 'Aikaasi on alle 2 tuntia, joten sitä ei voi enää muuttaa täällä. Jos haluat siirtää tai perua sen, soita klinikalle.',
    noScript: (sender) => `Jos haluat siirtää tai perua aikasi tällä sivulla, salli JavaScript selaimessasi tai ota yhteyttä palveluntarjoajaasi (${sender}).`,
    move: {
      heading: 'Siirrä aikaasi',
      intro: (place) => `Valitse uusi aika. Paikka: ${place}. Ajat ovat paikallista aikaa.`,
      count: (slots) => (slots === 1 ? '1 aika' : `${slots} aikaa`),
      none: (sender) =>
        `Tässä paikassa ei ole muita vapaita aikoja seuraavan 14 päivän aikana. Jos haluat siirtää aikasi, ota yhteyttä palveluntarjoajaasi (${sender}).`,
      button: 'Siirrä aikani',
      moved: 'Aikasi on siirretty.',
    },
    cancel: {
      heading: 'Peru aikasi',
      reason: 'Syy (vapaaehtoinen)',
      reasonHint: 'Enintään 500 merkkiä.',
      button: 'Peru aikani',
      question: 'Haluatko varmasti perua tämän ajan?',
      yes: 'Kyllä, peru aika',
      no: 'Ei, pidä aika',
    },
    answers: {
      working: 'Hetki…',
      chooseFirst: 'Valitse ensin uusi aika.',
      conflict:
        'Tämä ei onnistunut: aika on ehkä juuri varattu, tai aikaasi ei voi enää muuttaa täällä. Lataa sivu uudelleen nähdäksesi, mikä on nyt mahdollista.',
      invalid: 'Tätä aikaa ei voi varata. Valitse toinen aika.',
      tooMany: 'Liian monta yritystä. Yritä myöhemmin uudelleen tai ota yhteyttä klinikkaasi.',
      gone: 'Tämä linkki ei enää toimi. Käytä uusimman ajanvarausviestin linkkiä tai ota yhteyttä klinikkaan.',
      other: 'Jokin meni vikaan. Yritä uudelleen tai ota yhteyttä klinikkaan.',
    },
    footer: {
      from: (sender) => `Tämän sivun tarjoaa ${sender}.`,
      validUntil: (when) => `Linkki on voimassa: ${when} asti.`,
      keepPrivate: 'Älä jaa tätä linkkiä: kuka tahansa, jolla se on, voi nähdä ja muuttaa tämän ajan.',
    },
    linkError: {
      notFound: 'Linkki ei ole voimassa',
      expired: 'Linkki on vanhentunut',
      notFoundText: 'Se voi olla puutteellinen tai kirjoitettu väärin. Avaa uusimman ajanvarausviestisi linkki tai ota yhteyttä klinikkaasi.',
      expiredText:
        'Ajanvarauksen linkki on voimassa käynnin loppuun asti, enintään 30 päivää. Avaa uusimman ajanvarausviestisi linkki tai ota yhteyttä klinikkaasi.',
      busy: 'Sivua ei voida näyttää juuri nyt',
      busyText: 'Sitä on avattu liian monta kertaa lyhyessä ajassa, tai palvelu on hetkellisesti kuormittunut. Yritä uudelleen minuutin kuluttua.',
      failed: 'Jokin meni vikaan',
      failedText: 'Sivua ei voitu näyttää. Yritä myöhemmin uudelleen tai ota yhteyttä klinikkaasi.',
    },
  },
};
