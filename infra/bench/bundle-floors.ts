/**
 * The floors of the bundle benchmark (bench/bundles.ts): bare handlers that make only the AWS calls a
 * function cannot do without, and answer. Every function is measured against the floor of the AWS clients
 * it bundles: DynamoDB always (one GetItem, JSON back: what any handler of ours pays); EventBridge's
 * PutEvents when it publishes events; S3's GetObject when it reads or writes documents; SES's SendEmail
 * (API v2) when it sends patient email (issue #52: the message sender and the reminder sweep). A function that must
 * publish an event cannot ship without the EventBridge client, as one that reads an item cannot ship
 * without DynamoDB's: the ratio is what our code adds to the calls it must make, as the throughput and CPU
 * floors are (bench/floor-handlers.ts). Each row also keeps its ratio to the DynamoDB floor, without a target.
 */

/** An AWS client beyond DynamoDB's that a function may bundle, by the package that gives it away. */
const CLIENTS = {
  eventbridge: {
    package: '@aws-sdk/client-eventbridge',
    imports: "import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';\nconst events = new EventBridgeClient({});",
    call: "await events.send(new PutEventsCommand({ Entries: [{ EventBusName: process.env.EVENT_BUS_NAME, Source: 'lab', DetailType: 'Read', Detail: JSON.stringify({ id: event.pathParameters.id }) }] }));",
    name: 'PutEvents',
  },
  s3: {
    package: '@aws-sdk/client-s3',
    imports: "import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';\nconst s3 = new S3Client({});",
    call: 'const object = await s3.send(new GetObjectCommand({ Bucket: process.env.DOCUMENTS_BUCKET, Key: event.pathParameters.id }));\n  Item.size = (await object.Body.transformToByteArray()).length;',
    name: 'S3 GetObject',
  },
  ses: {
    package: '@aws-sdk/client-sesv2',
    imports: "import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';\nconst ses = new SESv2Client({});",
    call: "await ses.send(new SendEmailCommand({ FromEmailAddress: 'no-reply@lab.example.org', Destination: { ToAddresses: [Item.email] }, Content: { Simple: { Subject: { Data: 'Hello' }, Body: { Text: { Data: 'Hello' } } } } }));",
    name: 'SES SendEmail',
  },
} as const;
type Client = keyof typeof CLIENTS;

export interface Floor {
  /** `(bare GetItem handler)`, `(bare GetItem + PutEvents handler)`, … */
  readonly name: string;
  /** The module's source. */
  readonly source: string;
}

/** The name of the floor of a set of clients beyond DynamoDB's (in CLIENTS' order). */
const floorName = (clients: readonly Client[]) => `(bare GetItem${clients.map((client) => ` + ${CLIENTS[client].name}`).join('')} handler)`;

/** The floor of a set of clients beyond DynamoDB's (in CLIENTS' order). */
function floorOf(clients: readonly Client[]): Floor {
  const parts = clients.map((client) => CLIENTS[client]);
  const source = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
${parts.map((part) => part.imports).join('\n')}
const dynamo = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export const handler = async (event) => {
  const { Item } = await dynamo.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { PK: event.pathParameters.id, SK: 'A' } }));
  if (!Item) return { statusCode: 404, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ error: 'Not found' }) };
  ${parts.map((part) => part.call).join('\n  ')}
  return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(Item) };
};
`;
  return { name: floorName(clients), source };
}

/** The DynamoDB floor: the bare handler every ratio was against before there were others. */
export const BARE_FLOOR = floorOf([]);

/** Every floor, the DynamoDB one first: the sets of clients the stack's functions bundle. */
export const FLOORS: readonly Floor[] = [
  BARE_FLOOR,
  floorOf(['eventbridge']),
  floorOf(['s3']),
  floorOf(['eventbridge', 's3']),
  floorOf(['ses']),
  floorOf(['eventbridge', 'ses']),
];

/** The floor of a function, from the packages its bundle is made of. */
export function floorFor(packages: readonly string[]): Floor {
  const clients = (Object.keys(CLIENTS) as Client[]).filter((client) => packages.includes(CLIENTS[client].package));
  const floor = FLOORS.find((candidate) => candidate.name === floorName(clients));
  // A new set of clients needs its floor listed above, or its ratios would be against the wrong one.
  if (!floor) throw new Error(`no floor for the clients ${floorName(clients)}: add floorOf([${clients.map((c) => `'${c}'`).join(', ')}]) to FLOORS`);
  return floor;
}
