/**
 * The request bodies that cost the most to refuse, for the input-cost test (test/integration/input-cost.test.ts)
 * and `npm run bench`: the ones an outside probe used (2.2 MB of 550,000 array items took 2.5 s and 350 MB
 * to reject; 10 MB of 1.3 million items blocked the server for 13 s), and the worst a client can still send
 * under the 64 KiB limit. Each says what it must be answered with.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { type RouteName, routes } from '../../shared/routes';

export const SOME_ID = '00000000-0000-4000-8000-000000000000';

export interface PathologicalBody {
  name: string;
  /** A route that takes a body, and its path; the appointment need not exist, the body is refused first. */
  route: RouteName;
  path: string;
  body: string;
  status: 400 | 413;
  error: string;
}

const TOO_LARGE = 'Request body must be at most 64 KiB';

export function pathologicalBodies(): PathologicalBody[] {
  return [
    {
      name: '550,000 invalid ids (2.2 MB)',
      route: 'attachAppointmentPanels',
      path: `/api/v1/appointments/${SOME_ID}/panels`,
      body: JSON.stringify({ panel_ids: Array<string>(550_000).fill('x') }),
      status: 413,
      error: TOO_LARGE,
    },
    {
      name: '1.3 million numbers (9.9 MB)',
      route: 'attachAppointmentBiomarkers',
      path: `/api/v1/appointments/${SOME_ID}/biomarkers`,
      body: JSON.stringify({ biomarker_ids: Array<number>(1_300_000).fill(1.5) }).slice(0, 9_900_000),
      status: 413,
      error: TOO_LARGE,
    },
    {
      name: 'a 9 MB string',
      route: 'cancelAppointment',
      path: `/api/v1/appointments/${SOME_ID}/cancel`,
      body: JSON.stringify({ cancellation_reason: 'a'.repeat(9_000_000) }),
      status: 413,
      error: TOO_LARGE,
    },
    {
      name: '200,000 unknown properties (3.2 MB)',
      route: 'createProfile',
      path: '/api/v1/profiles',
      body: JSON.stringify(Object.fromEntries(Array.from({ length: 200_000 }, (_, i) => [`k${i}`, i]))),
      status: 413,
      error: TOO_LARGE,
    },
    {
      name: '16,000 invalid ids (63 KiB)',
      route: 'attachAppointmentPanels',
      path: `/api/v1/appointments/${SOME_ID}/panels`,
      body: JSON.stringify({ panel_ids: Array<string>(16_000).fill('x') }),
      status: 400,
      error: 'panel_ids must list at most 1000 items',
    },
    {
      name: '32,000 numbers (63 KiB)',
      route: 'attachAppointmentBiomarkers',
      path: `/api/v1/appointments/${SOME_ID}/biomarkers`,
      body: JSON.stringify({ biomarker_ids: Array<number>(32_000).fill(1) }),
      status: 400,
      error: 'biomarker_ids must list at most 1000 items',
    },
    {
      name: '1,000 invalid ids, the most allowed',
      route: 'pickupAppointments',
      path: '/api/v1/appointments/pickup',
      body: JSON.stringify({ appointment_ids: Array<string>(1_000).fill('x') }),
      status: 400,
      error: [0, 1, 2, 3, 4].map((i) => `appointment_ids.${i} must be a valid UUID`).join('; '),
    },
    {
      name: '32,000 levels of nesting (63 KiB)',
      route: 'cancelAppointment',
      path: `/api/v1/appointments/${SOME_ID}/cancel`,
      body: `{"cancellation_reason":${'['.repeat(32_000)}${']'.repeat(32_000)}}`,
      status: 400,
      error: 'Request body is nested too deeply',
    },
    {
      name: '4,500 unknown properties (63 KiB)',
      route: 'createProfile',
      path: '/api/v1/profiles',
      body: JSON.stringify(Object.fromEntries(Array.from({ length: 4_500 }, (_, i) => [`key${i}`, i]))),
      status: 400,
      error: 'profile_group_slug is required; first_name is required; last_name is required; date_of_birth is required; key0 is not an allowed field',
    },
  ];
}

type Handler = (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult>;

/** The event API Gateway sends for a POST with this body: base64, as with binaryMediaTypes every type. */
function gatewayEvent(path: string, body: string, apiKey: string): APIGatewayProxyEvent {
  return {
    path,
    httpMethod: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': apiKey },
    body: Buffer.from(body).toString('base64'),
    isBase64Encoded: true,
    requestContext: { requestId: 'input-cost' },
  } as unknown as APIGatewayProxyEvent;
}

const context = { awsRequestId: 'input-cost', functionName: 'input-cost', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;

export interface Refusal {
  status: number;
  body: unknown;
  milliseconds: number;
  /** How much heap and buffer memory grew while the handler ran: indicative (a collection meanwhile lowers it). */
  extraMegabytes: number;
}

/** Invokes the route's handler in process, warmed first (module, key cache), and measures the refusal alone. */
export async function measureRefusal(pathological: PathologicalBody, apiKey: string): Promise<Refusal> {
  const { handler } = (await import(`../../${routes[pathological.route].handler}`)) as { handler: Handler };
  await handler(gatewayEvent(pathological.path, '{}', apiKey), context);
  const event = gatewayEvent(pathological.path, pathological.body, apiKey);
  const before = process.memoryUsage();
  const started = performance.now();
  const result = await handler(event, context);
  const milliseconds = performance.now() - started;
  const after = process.memoryUsage();
  const extra = after.heapUsed + after.arrayBuffers - before.heapUsed - before.arrayBuffers;
  return { status: result.statusCode, body: JSON.parse(result.body), milliseconds, extraMegabytes: Math.max(0, extra) / 1024 / 1024 };
}
