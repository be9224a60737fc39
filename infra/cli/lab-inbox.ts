/**
 * `npm run lab -- orders [--json]` and `npm run lab -- refuse-next [--text "…"]` (issue #51): the simulated
 * lab's side of the order messages `npm start` sends it over MLLP (infra/local/simulated-lab.ts), read from
 * and written to the data folder, so they work whether the stack runs or not.
 *
 * `orders`: one line per message received, newest first: when, the control id (MSH-10), the requisition
 * (ORC-4), the barcode (ORC-2), and each test's LOINC code (OBR-4). `--json`: `[{received_at, control_id,
 * message}]` with the raw message (segments separated by CR), for a script or a test to read.
 * `refuse-next`: the next message is answered AR with that text (MSA-3), once; the order reads refused.
 */
import { splitHl7Message } from '../../shared/hl7/message';
import { DEFAULT_REFUSAL, type ReceivedOrder, receivedOrders, refuseNext } from '../local/simulated-lab';
import { runningStackSettings } from '../local/stack-file';
import { UsageError } from './usage';

export const LAB_INBOX_COMMANDS = ['orders', 'refuse-next'] as const;
export const LAB_INBOX_USAGE = `  npm run lab -- orders [--json]
    the order messages the simulated lab received over MLLP, newest first (--json: with each raw message)
  npm run lab -- refuse-next [--text "…"]
    the simulated lab answers the next order message AR (refused), with that text`;

export function isLabInboxCommand(command: string | undefined): command is (typeof LAB_INBOX_COMMANDS)[number] {
  return (LAB_INBOX_COMMANDS as readonly (string | undefined)[]).includes(command);
}

/** One line of `orders`: what a person scanning the lab's inbox wants to see. */
function summary(order: ReceivedOrder): string {
  try {
    const segments = splitHl7Message(order.message);
    const orc = segments.find((segment) => segment.name === 'ORC');
    const loincs = segments.filter((segment) => segment.name === 'OBR').map((obr) => obr.getComponent(4, 1));
    const type = `${segments[0]?.getComponent(9, 1) ?? ''}^${segments[0]?.getComponent(9, 2) ?? ''}`;
    return `${order.received_at}  ${order.control_id}  ${type}  requisition ${orc?.getComponent(4, 1) ?? '-'}  barcode ${orc?.getComponent(2, 1) ?? '-'}  tests ${loincs.join(', ') || '-'}`;
  } catch {
    return `${order.received_at}  ${order.control_id}  (not readable as HL7 v2)`;
  }
}

export function runLabInboxCommand(positionals: string[], values: { json?: boolean; text?: string }): void {
  const [command, ...rest] = positionals;
  if (rest.length > 0) throw new UsageError(`${command} takes no argument: ${rest.join(' ')}`);
  const { dataDir } = runningStackSettings();
  if (command === 'orders') {
    if (values.text !== undefined) throw new UsageError('--text applies to refuse-next only');
    const orders = receivedOrders(dataDir);
    if (values.json) console.log(JSON.stringify(orders, null, 2));
    else if (orders.length === 0) console.log('The simulated lab has received no order yet (npm start runs it; confirm a draw to send one).');
    else for (const order of orders) console.log(summary(order));
    return;
  }
  if (values.json) throw new UsageError('--json applies to orders only');
  if (values.text !== undefined && values.text.trim() === '') throw new UsageError('--text takes the reason the lab gives, e.g. --text "Unknown test code"');
  const text = values.text ?? DEFAULT_REFUSAL;
  refuseNext(dataDir, text);
  console.log(`The simulated lab answers the next order message AR: "${text}". The order then reads lab_order.status refused.`);
}
