/** Which TCP ports are free: for the tests' parallel stacks, and for `npm start`'s check before it starts anything. */
import { connect, createServer } from 'node:net';

/** A TCP port nothing listens on right now, so parallel suites and a running `npm start` never collide. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Whether something accepts connections on this port of 127.0.0.1. */
export function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function cannotListen(port: number, host: string): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', (error: NodeJS.ErrnoException) => (error.code === 'EADDRINUSE' ? resolve(true) : reject(error)));
    server.listen({ port, host, exclusive: true }, () => server.close(() => resolve(false)));
  });
}

/**
 * Whether a server could not take this port on `host` (the address it binds, 0.0.0.0 for all). Both
 * probes, because some systems let a second server bind a specific address beside a wildcard one.
 */
export async function portInUse(port: number, host: string): Promise<boolean> {
  const [answers, taken] = await Promise.all([portAnswers(port), cannotListen(port, host)]);
  return answers || taken;
}
