/**
 * Bounded input cost: the bodies that cost the most to refuse (infra/local/pathological-bodies.ts) are
 * answered by the handler, invoked in process with the event API Gateway sends, before any deep
 * validation. Each test asserts the answer; the time and memory each took are printed, not asserted (a
 * busy machine would make a timed assertion flaky): `npm run bench` reports them against their targets.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureRefusal, pathologicalBodies } from '../../infra/local/pathological-bodies';
import { apiKey, seedDemoData } from '../support/fixtures';

let key: string;
const figures: string[] = [];

beforeAll(async () => {
  await seedDemoData();
  key = await apiKey();
});

afterAll(() => {
  console.log(`input cost: handler time and extra memory per pathological body\n${figures.join('\n')}`);
});

describe('bodies that cost the most to refuse', () => {
  it.each(pathologicalBodies().map((body) => [body.name, body] as const))('refuses %s with its 4xx before validating it', async (_, pathological) => {
    const refusal = await measureRefusal(pathological, key);
    figures.push(`  ${pathological.name.padEnd(36)} → ${refusal.status} in ${refusal.milliseconds.toFixed(1)} ms, ${refusal.extraMegabytes.toFixed(1)} MB`);
    expect({ status: refusal.status, body: refusal.body }).toEqual({ status: pathological.status, body: { error: pathological.error } });
  });
});
