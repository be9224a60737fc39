/** How a document link of an appointment reads (shared/store/lab-reports.ts documentLink): the store module needs the configuration of an integration file. */
import { describe, expect, it } from 'vitest';
import { documentLink } from '../../shared/store/lab-reports';

describe('a document link as the appointment reads it', () => {
  it('reads a link stored before kinds and statuses existed as a final lab report', () => {
    expect(documentLink({ id: 'd', file_name: 'r.pdf', added_at: '2026-11-20T10:00:00.000Z' })).toEqual({
      id: 'd',
      file_name: 'r.pdf',
      added_at: '2026-11-20T10:00:00.000Z',
      kind: 'lab_report',
      result_status: 'final',
    });
  });

  it('keeps the kind and status a link was stored with', () => {
    expect(documentLink({ id: 'd', file_name: 'r.pdf', added_at: 'x', kind: 'lab_report', result_status: 'preliminary' })).toMatchObject({
      result_status: 'preliminary',
    });
  });
});
