/** The requisition number (shared/domain/requisition.ts): RQ- and 12 Crockford base32 characters, one per random byte. */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { REQUISITION_NUMBER_PATTERN, requisitionNumberOf } from '../../shared/domain/requisition';

describe('requisitionNumberOf', () => {
  it('writes each byte as the Crockford character of its low 5 bits, in groups of four', () => {
    const bytes = Uint8Array.from([0, 1, 9, 10, 17, 18, 20, 21, 26, 27, 31, 32 + 31]);
    expect(requisitionNumberOf(bytes)).toBe('RQ-019A-HJMN-TVZZ');
  });

  it('never writes I, L, O or U, and always matches the published pattern', () => {
    for (let i = 0; i < 500; i++) {
      const number = requisitionNumberOf(randomBytes(12));
      expect(number).toMatch(REQUISITION_NUMBER_PATTERN);
      expect(number).not.toMatch(/[ILOU]/);
    }
  });
});
