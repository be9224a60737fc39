import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENTS_DIR, eventSchemaDocuments } from '../../infra/contract/event-schemas';

describe('docs/events', () => {
  it.each([...eventSchemaDocuments()])('%s matches the schema the code publishes (run npm run docs:events)', (file, generated) => {
    expect(readFileSync(join(EVENTS_DIR, file), 'utf8')).toBe(generated);
  });
});
