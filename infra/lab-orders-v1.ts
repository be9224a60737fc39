/**
 * LabOrderRequested as version 1, for a lab whose consumer of the lab orders queue was written against it
 * (issue #50): the bus carries version 2, whose new fields a strict version 1 validator refuses, so the queue's
 * rule renders version 1 from it with an input transformer: the EventBridge envelope as it is, and a detail of
 * version 1's fields alone (LAB_ORDER_V1_FIELDS, the same list the v1 schema is generated from). A stage moves
 * its queue to version 2 with labOrdersQueueVersion once its lab dispatches on schema_version.
 */
import { EventField, RuleTargetInput } from 'aws-cdk-lib/aws-events';
import { LAB_ORDER_V1_FIELDS } from '../shared/events/lab-order-requested';

/** The message an SQS target of the rule receives: what EventBridge sends without a transformer, in version 1. */
export function labOrdersV1Message(): RuleTargetInput {
  return RuleTargetInput.fromObject({
    version: EventField.fromPath('$.version'),
    id: EventField.eventId,
    'detail-type': EventField.detailType,
    source: EventField.source,
    account: EventField.account,
    time: EventField.time,
    region: EventField.region,
    resources: EventField.fromPath('$.resources'),
    detail: Object.fromEntries(LAB_ORDER_V1_FIELDS.map((field) => [field, EventField.fromPath(`$.detail.${field}`)])),
  });
}
