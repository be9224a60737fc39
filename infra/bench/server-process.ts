/**
 * The local server as `npm start` runs it, alone in a process of its own (forked by bench/throughput.ts):
 * its CPU is then its own, not shared with the load generator's. The environment comes from the bench;
 * logs at INFO, as deployed (infra/api-function.ts), to wherever the parent sent stdout. Tells the parent
 * its URL over IPC and stops when the parent disconnects. Beside the routes table it serves the route's
 * floor (bench/floor-handlers.ts), which throughput.ts loads through the same server.
 */
import { FLOOR_ROUTE } from './floor-route';
import { startLocalApi } from '../local/server';

const api = await startLocalApi(0, { extraRoutes: [FLOOR_ROUTE] });
process.send?.({ url: api.url });
process.on('disconnect', () => void api.close().then(() => process.exit(0)));
