/** A sample barcode: the label on a blood tube or home-kit tube, 6–32 characters of A–Z, 0–9 and `-`. */
export const BARCODE_PATTERN = /^[A-Z0-9-]{6,32}$/;
