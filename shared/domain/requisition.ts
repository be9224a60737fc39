/**
 * The requisition: what ties the tubes of one draw (or one home kit's sample) to the order the lab
 * receives, and the form that travels with them (issue #50).
 *
 * Its number is `RQ-` and twelve characters of Crockford's base32 in groups of four, e.g.
 * `RQ-7K3M-9XQ2-HT4W`: 60 random bits, so one number tells nothing of another (a sequence would let a
 * holder of one requisition guess the next), and a claim item in the draw's transaction makes it unique
 * across the service. Crockford's alphabet has no I, L, O or U, so a number read aloud over the phone or
 * typed from the form cannot be mistaken; upper case, digits and hyphens fit a Code 128 barcode, an HL7
 * v2 entity identifier (ORC-4) and a FHIR identifier alike.
 */
import type { Specimen } from './catalog';

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

export const REQUISITION_NUMBER_PATTERN = /^RQ-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

/** Why a sample has no requisition to show: not drawn (or activated) yet, or drawn before requisitions existed. */
export const NO_REQUISITION =
  'No requisition yet: it is made when the blood draw is confirmed (or the home kit activated); samples taken before requisitions existed have none';

/** The requisition number of 12 random bytes (the caller draws them from a cryptographic source). */
export function requisitionNumberOf(bytes: Uint8Array): string {
  // Each character takes the low 5 bits of its own byte: 12 × 5 = 60 bits, every character equally likely.
  const chars = [...bytes].map((byte) => CROCKFORD[byte & 31]).join('');
  return `RQ-${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}

/** A test as the lab was asked for it: the catalog's code, name and specimen when the order was made. */
export interface OrderedTest {
  biomarker_id: number;
  loinc: string;
  /** The catalog's English name: the lab's language, whatever the patient's. */
  name: string;
  specimen: Specimen;
}

/**
 * The requisition of a sample, kept with its appointment as ordered: the form, the FHIR order and the lab
 * order event all read these tests, so a later change of the catalog never rewrites what the lab was sent.
 */
export interface Requisition {
  number: string;
  created_at: string;
  tests: OrderedTest[];
}
