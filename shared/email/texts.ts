/**
 * Every word a patient email says, in each language a profile may have (issue #52): one typed catalogue, so a
 * missing sentence is a type error. English and German address the reader formally ("you", "Sie"), Finnish
 * as Finnish services do (sinä). Names from data (the sender, a place) are never inflected: Finnish puts the
 * sender in parentheses or in the nominative, where a case ending would need the name's grammar.
 *
 * What the messages must never say lives here too, by its absence: no result values, no test names, no
 * diagnosis, no reason a sample was rejected beyond "could not be tested".
 */
import type { MessageLanguage } from './content';

export interface EmailWords {
  greeting: (firstName: string | null) => string;
  when: string;
  where: string;
  address: string;
  map: string;
  openMap: string;
  specimens: string;
  preparation: string;
  fasting: (hours: number) => string;
  important: string;
  manageAppointment: string;
  viewAppointment: string;
  /** The calendar entry's title: what the patient's calendar shows, so nothing more than "a lab appointment". */
  calendarTitle: string;
  booked: { subject: (when: string) => string; heading: string; intro: string; calendarNote: string };
  rescheduled: { subject: (when: string) => string; heading: string; intro: string; previously: (when: string, place: string) => string; calendarNote: string };
  cancelled: { subject: (when: string) => string; heading: string; intro: string; rebook: (sender: string) => string; calendarNote: string };
  reminder: { subject: (when: string) => string; heading: string; intro: string };
  kitDispatched: { subject: string; intro: string; trackingNumber: string; instructions: string };
  resultsReady: { subject: string; intro: string; whereToRead: (sender: string) => string; noResultsHere: string };
  specimenRejected: { subject: string; intro: string; bookAgain: (sender: string) => string; apology: string };
  footer: { from: (sender: string) => string; why: string; unsubscribe: string };
}

export const EMAIL_WORDS: Record<MessageLanguage, EmailWords> = {
  en: {
    greeting: (firstName) => (firstName ? `Hello ${firstName},` : 'Hello,'),
    when: 'When',
    where: 'Where',
    address: 'Address',
    map: 'Map',
    openMap: 'Open in a map',
    specimens: 'Samples to be taken',
    preparation: 'How to prepare',
    fasting: (hours) => `Do not eat for ${hours} ${hours === 1 ? 'hour' : 'hours'} before your appointment.`,
    important: 'Important:',
    manageAppointment: 'View or change your appointment',
    viewAppointment: 'View your appointment',
    calendarTitle: 'Lab appointment',
    booked: {
      subject: (when) => `Your appointment is booked: ${when}`,
      heading: 'Your appointment is booked',
      intro: 'Your appointment for your lab tests is booked.',
      calendarNote: 'The attached calendar file (appointment.ics) adds it to your calendar.',
    },
    rescheduled: {
      subject: (when) => `Your appointment has been moved: ${when}`,
      heading: 'Your appointment has been moved',
      intro: 'Your appointment has changed. This is your new appointment:',
      previously: (when, place) => `Previously: ${when}, ${place}.`,
      calendarNote: 'The attached calendar file updates the entry in your calendar.',
    },
    cancelled: {
      subject: (when) => `Your appointment has been cancelled: ${when}`,
      heading: 'Your appointment has been cancelled',
      intro: 'This appointment has been cancelled:',
      rebook: (sender) => `If you would like a new appointment, ${sender} can book one for you.`,
      calendarNote: 'The attached calendar file removes it from your calendar.',
    },
    reminder: {
      subject: (when) => `Reminder: your appointment on ${when}`,
      heading: 'A reminder of your appointment',
      intro: 'We look forward to seeing you. Your appointment:',
    },
    kitDispatched: {
      subject: 'Your home test kit is on its way',
      intro: 'Your home test kit has been sent to you.',
      trackingNumber: 'Tracking number',
      instructions: 'When it arrives, please follow the instructions in the kit.',
    },
    resultsReady: {
      subject: 'Your results are ready',
      intro: 'Your lab results are ready.',
      whereToRead: (sender) => `${sender} shows them to you in their app or patient portal. You can also ask ${sender} about them.`,
      noResultsHere: 'For your privacy, this email contains no results.',
    },
    specimenRejected: {
      subject: 'Your sample could not be tested',
      intro: 'Unfortunately, the laboratory could not test your sample.',
      bookAgain: (sender) => `Please book a new appointment with ${sender} so that a new sample can be taken.`,
      apology: 'We are sorry for the inconvenience.',
    },
    footer: {
      from: (sender) => `This email was sent by ${sender}.`,
      why: 'You receive it because it is about your lab tests: we send these transactional emails about appointments, home test kits and results.',
      unsubscribe: 'Unsubscribe from these emails',
    },
  },
  de: {
    greeting: (firstName) => (firstName ? `Hallo ${firstName},` : 'Guten Tag,'),
    when: 'Wann',
    where: 'Wo',
    address: 'Adresse',
    map: 'Karte',
    openMap: 'Auf der Karte ansehen',
    specimens: 'Zu entnehmende Proben',
    preparation: 'So bereiten Sie sich vor',
    fasting: (hours) => `Bitte essen Sie ab ${hours} ${hours === 1 ? 'Stunde' : 'Stunden'} vor Ihrem Termin nichts mehr.`,
    important: 'Wichtig:',
    manageAppointment: 'Termin ansehen oder ändern',
    viewAppointment: 'Termin ansehen',
    calendarTitle: 'Labortermin',
    booked: {
      subject: (when) => `Ihr Termin ist gebucht: ${when}`,
      heading: 'Ihr Termin ist gebucht',
      intro: 'Ihr Termin für Ihre Laboruntersuchung ist gebucht.',
      calendarNote: 'Mit der angehängten Kalenderdatei (appointment.ics) tragen Sie ihn in Ihren Kalender ein.',
    },
    rescheduled: {
      subject: (when) => `Ihr Termin wurde verschoben: ${when}`,
      heading: 'Ihr Termin wurde verschoben',
      intro: 'Ihr Termin hat sich geändert. Das ist Ihr neuer Termin:',
      previously: (when, place) => `Bisher: ${when}, ${place}.`,
      calendarNote: 'Die angehängte Kalenderdatei aktualisiert den Eintrag in Ihrem Kalender.',
    },
    cancelled: {
      subject: (when) => `Ihr Termin wurde abgesagt: ${when}`,
      heading: 'Ihr Termin wurde abgesagt',
      intro: 'Dieser Termin wurde abgesagt:',
      rebook: (sender) => `Wenn Sie einen neuen Termin möchten, bucht ${sender} ihn gerne für Sie.`,
      calendarNote: 'Die angehängte Kalenderdatei entfernt ihn aus Ihrem Kalender.',
    },
    reminder: {
      subject: (when) => `Erinnerung: Ihr Termin am ${when}`,
      heading: 'Erinnerung an Ihren Termin',
      intro: 'Wir freuen uns auf Ihren Besuch. Ihr Termin:',
    },
    kitDispatched: {
      subject: 'Ihr Testkit ist unterwegs',
      intro: 'Ihr Testkit für zu Hause wurde an Sie verschickt.',
      trackingNumber: 'Sendungsnummer',
      instructions: 'Wenn es ankommt, folgen Sie bitte der Anleitung im Kit.',
    },
    resultsReady: {
      subject: 'Ihre Ergebnisse liegen vor',
      intro: 'Ihre Laborergebnisse liegen vor.',
      whereToRead: (sender) => `${sender} zeigt sie Ihnen in der App oder im Patientenportal. Sie können ${sender} auch direkt danach fragen.`,
      noResultsHere: 'Zum Schutz Ihrer Daten enthält diese E-Mail keine Ergebnisse.',
    },
    specimenRejected: {
      subject: 'Ihre Probe konnte nicht untersucht werden',
      intro: 'Leider konnte das Labor Ihre Probe nicht untersuchen.',
      bookAgain: (sender) => `Bitte vereinbaren Sie bei ${sender} einen neuen Termin, damit eine neue Probe entnommen werden kann.`,
      apology: 'Wir bitten um Entschuldigung für die Unannehmlichkeiten.',
    },
    footer: {
      from: (sender) => `Diese E-Mail wurde von ${sender} gesendet.`,
      why: 'Sie erhalten sie, weil sie Ihre Laboruntersuchungen betrifft: Wir senden diese Service-E-Mails zu Terminen, Testkits und Ergebnissen.',
      unsubscribe: 'Diese E-Mails abbestellen',
    },
  },
  fi: {
    greeting: (firstName) => (firstName ? `Hei ${firstName},` : 'Hei,'),
    when: 'Aika',
    where: 'Paikka',
    address: 'Osoite',
    map: 'Kartta',
    openMap: 'Avaa kartalla',
    specimens: 'Otettavat näytteet',
    preparation: 'Näin valmistaudut',
    fasting: (hours) => `Älä syö mitään ${hours} tuntiin ennen käyntiäsi (paasto).`,
    important: 'Tärkeää:',
    manageAppointment: 'Katso tai muuta varaustasi',
    viewAppointment: 'Katso varaustasi',
    calendarTitle: 'Laboratorioaika',
    booked: {
      subject: (when) => `Aikasi on varattu: ${when}`,
      heading: 'Aikasi on varattu',
      intro: 'Aikasi laboratoriotutkimuksiin on varattu.',
      calendarNote: 'Liitteenä olevalla kalenteritiedostolla (appointment.ics) voit lisätä ajan kalenteriisi.',
    },
    rescheduled: {
      subject: (when) => `Varauksesi on muuttunut: ${when}`,
      heading: 'Varauksesi on muuttunut',
      intro: 'Varauksesi on muuttunut. Uusi aika ja paikka:',
      previously: (when, place) => `Aiemmin: ${when}, ${place}.`,
      calendarNote: 'Liitteenä oleva kalenteritiedosto päivittää merkinnän kalenterissasi.',
    },
    cancelled: {
      subject: (when) => `Aikasi on peruttu: ${when}`,
      heading: 'Aikasi on peruttu',
      intro: 'Tämä aika on peruttu:',
      rebook: (sender) => `Jos haluat uuden ajan, voit varata sen palveluntarjoajaltasi (${sender}).`,
      calendarNote: 'Liitteenä oleva kalenteritiedosto poistaa ajan kalenteristasi.',
    },
    reminder: {
      subject: (when) => `Muistutus: aikasi ${when}`,
      heading: 'Muistutus ajastasi',
      intro: 'Tervetuloa käynnille. Aikasi:',
    },
    kitDispatched: {
      subject: 'Kotitestipakkauksesi on matkalla',
      intro: 'Kotitestipakkauksesi on lähetetty sinulle.',
      trackingNumber: 'Seurantatunnus',
      instructions: 'Kun pakkaus saapuu, noudata sen ohjeita.',
    },
    resultsReady: {
      subject: 'Tuloksesi ovat valmiina',
      intro: 'Laboratoriotuloksesi ovat valmiina.',
      whereToRead: (sender) =>
        `Näet ne palveluntarjoajasi (${sender}) sovelluksessa tai potilasportaalissa. Voit myös kysyä tuloksista suoraan palveluntarjoajaltasi.`,
      noResultsHere: 'Yksityisyytesi suojaamiseksi tässä viestissä ei ole tuloksia.',
    },
    specimenRejected: {
      subject: 'Näytettäsi ei voitu tutkia',
      intro: 'Valitettavasti laboratorio ei voinut tutkia näytettäsi.',
      bookAgain: (sender) => `Varaa uusi aika palveluntarjoajaltasi (${sender}), jotta sinulta voidaan ottaa uusi näyte.`,
      apology: 'Pahoittelemme vaivaa.',
    },
    footer: {
      from: (sender) => `Tämän viestin lähettäjä: ${sender}.`,
      why: 'Saat viestin, koska se koskee laboratoriotutkimuksiasi: lähetämme näitä palveluviestejä ajoista, kotitestipakkauksista ja tuloksista.',
      unsubscribe: 'Peru näiden viestien tilaus',
    },
  },
};
