/**
 * The lab orders queue and LabOrderRequested's versions (issue #50): a stage whose labOrdersQueueVersion is 1
 * renders version 1 from the bus's version 2 with its rule's input transformer. EventBridge cannot run here,
 * so the transformer is applied as EventBridge applies it (each <name> of the template replaced by the JSON
 * value at its path) to a real version 2 event, and the result checked against the published v1 schema.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_DIR } from '../../infra/contract/event-schemas';
import { STAGE_FILES } from '../../infra/settings';
import { LAB_ORDER_V1_FIELDS, labOrderRequested } from '../../shared/events/lab-order-requested';
import { labApiStack, Synthesized, testApp } from './synth';

interface Transformer {
  InputPathsMap: Record<string, string>;
  InputTemplate: string;
}

/** The target of the rule that feeds the lab orders queue. */
function labOrdersTarget(synthesized: Synthesized): { InputTransformer?: Transformer } {
  const [, rule] = synthesized.ofType('AWS::Events::Rule').find(([, r]) => r.Properties.Description === 'LabOrderRequested to the lab orders queue')!;
  return (rule.Properties.Targets as { InputTransformer?: Transformer }[])[0]!;
}

/** What EventBridge sends the target: the template, each placeholder the JSON of the value at its path. */
function transformed(transformer: Transformer, event: Record<string, unknown>): Record<string, unknown> {
  const at = (path: string) =>
    path
      .slice(2)
      .split('.')
      .reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], event);
  return JSON.parse(transformer.InputTemplate.replace(/<([^<>]+)>/g, (_match, name: string) => JSON.stringify(at(transformer.InputPathsMap[name]!))));
}

const detail = labOrderRequested(
  {
    appointment_id: '2c59b543-54a0-47b9-891a-61ed02fc2ea7',
    profile_id: '0f0e4c9a-7a51-4b8e-9a3f-2d6c1b5e8f10',
    barcode: 'LAB-0001-ABC',
    test_method: 'home',
    location_id: null,
    panel_ids: ['7c0e4b1a-2f3d-4c5e-8a9b-0d1e2f3a4b01'],
    biomarker_ids: [5, 6],
    requisition_number: 'RQ-7K3M-9XQ2-HT4W',
    tests: [5, 6].map((biomarker_id) => ({
      biomarker_id,
      loinc: '4548-4',
      specimen: { type: 'capillary_blood' as const, container: 'dried blood spot card', min_volume_ml: 0.1 },
    })),
  },
  '2026-11-28T10:00:00.000Z',
).detail as Record<string, unknown>;
const event = {
  version: '0',
  id: '6a7e8feb-b491-4cf7-a9f1-bf3703467718',
  'detail-type': 'LabOrderRequested',
  source: 'lab-api',
  account: '111122223333',
  time: '2026-11-28T10:00:01Z',
  region: 'eu-central-1',
  resources: [],
  detail,
};

let prod: Synthesized;
let dev: Synthesized;
beforeAll(() => {
  prod = new Synthesized(labApiStack(testApp(), 'prod'));
  dev = new Synthesized(labApiStack(testApp(), 'dev'));
});

describe('the lab orders queue of a stage on version 1', () => {
  it('is prod (and staging): their labs read version 1 until they dispatch on schema_version', () => {
    expect([STAGE_FILES.prod.labOrdersQueueVersion, STAGE_FILES.staging.labOrdersQueueVersion, STAGE_FILES.dev.labOrdersQueueVersion]).toEqual([1, 1, 2]);
  });

  it('receives a detail the published version 1 schema accepts, from a version 2 event', () => {
    const v1 = addFormats(new Ajv({ strict: false, allErrors: true })).compile(
      JSON.parse(readFileSync(join(EVENTS_DIR, 'lab-order-requested.v1.schema.json'), 'utf8')),
    );
    const message = transformed(labOrdersTarget(prod).InputTransformer!, event);
    expect(v1(message.detail), JSON.stringify(v1.errors)).toBe(true);
  });

  it("receives version 1's fields with the event's values, null and arrays included, and nothing else", () => {
    const message = transformed(labOrdersTarget(prod).InputTransformer!, event);
    expect(message.detail).toEqual(Object.fromEntries(LAB_ORDER_V1_FIELDS.map((field) => [field, detail[field]])));
  });

  it('receives the EventBridge envelope as it is', () => {
    const { detail: _detail, ...envelope } = transformed(labOrdersTarget(prod).InputTransformer!, event);
    const { detail: _sent, ...sent } = event;
    expect(envelope).toEqual(sent);
  });
});

describe('the lab orders queue of a stage on version 2', () => {
  it('receives the event as the bus carries it, with no transformer', () => {
    expect(labOrdersTarget(dev).InputTransformer).toBeUndefined();
  });
});
