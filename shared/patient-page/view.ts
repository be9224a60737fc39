/**
 * The patient's page of one appointment (issue #53, docs/patient-page.md): what the page shows, gathered by
 * the use case (shared/usecases/patient-link.ts) and rendered by ./render.ts. First name, time and place,
 * what to prepare, the status: nothing more of the person, and never a result.
 */
import type { MessageLanguage } from '../email/content';

export type PatientPageLanguage = MessageLanguage;

/** What the page says of the appointment's state. */
export type PatientPageStatus = 'scheduled' | 'blood_drawn' | 'in_transit' | 'completed' | 'cancelled';

export interface PatientPageView {
  language: PatientPageLanguage;
  firstName: string | null;
  /** Who the patient knows: the profile group's sender name (as the emails say). */
  senderName: string;
  status: PatientPageStatus;
  appointment: {
    /** UTC instants, shown in `timeZone`. */
    scheduledAt: string;
    endsAt: string;
    /** The location's IANA time zone. */
    timeZone: string;
    location: { name: string; address: string; mapUrl: string | null };
    preparation: { fasting_hours: number; instructions: string[] };
    /** The tubes and cards to collect, summed. */
    specimenCount: number;
  };
  /**
   * Whether the patient may still reschedule or cancel here: scheduled and at least 2 hours away. When false
   * on a scheduled appointment, `closedReason` says why (too close: call the clinic).
   */
  changeable: boolean;
  closedReason?: 'too_close';
  /** The free slot starts (UTC instants) of the next 14 days at the same location, when changeable; the current one excluded. */
  slots: string[];
  /** When the link stops working (UTC). */
  expiresAt: string;
}

/** Why a link opens nothing: unknown or altered (404), or expired (410). The language is unknown then. */
export type LinkErrorKind = 'not_found' | 'expired';

/** The pages the page's route answers when it shows no appointment: a link that opens nothing, or a page that cannot be shown now (429, 503: busy) or failed (500). */
export type LinkErrorPageKind = LinkErrorKind | 'busy' | 'failed';

/** What a rendered page answers with: the HTML and the headers that must go with it (its CSP names its hashes). */
export interface RenderedPage {
  html: string;
  headers: Record<string, string>;
}
