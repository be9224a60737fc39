/**
 * The load process's hold on the local server it forked (./server-process.ts): the commands it may send over
 * IPC and their answers, and the client that sends one and waits for its answer. Only the load run uses it;
 * `npm start` has no such hook.
 */
import type { ChildProcess } from 'node:child_process';
import type { TableCheckRequest, TableCheckResult } from './table-checks';

export type ControlRequest =
  | { command: 'issueKey'; name: string }
  | { command: 'ingest'; appointmentId: string; reportId: string }
  | { command: 'relay' }
  | { command: 'sweepAhead'; aheadMs: number }
  | { command: 'memory' }
  | ({ command: 'check' } & TableCheckRequest);

export interface Memory {
  rss: number;
  heapUsed: number;
  heapTotal: number;
}

interface Results {
  issueKey: { keyId: string; plaintext: string };
  ingest: unknown;
  relay: number;
  sweepAhead: number;
  memory: Memory;
  check: TableCheckResult;
}

export type ControlAnswer = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

export interface ServerControl {
  send<C extends ControlRequest>(request: C): Promise<Results[C['command']]>;
}

export function serverControl(child: ChildProcess): ServerControl {
  let next = 0;
  const waiting = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  child.on('message', (message: ControlAnswer | { ready: string }) => {
    if (!('id' in message)) return;
    const waiter = waiting.get(message.id);
    waiting.delete(message.id);
    if (message.ok) waiter?.resolve(message.result);
    else waiter?.reject(new Error(message.error));
  });
  child.on('exit', () => {
    for (const waiter of waiting.values()) waiter.reject(new Error('the local server exited'));
    waiting.clear();
  });
  return {
    send: (request) =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
        child.send({ ...request, id });
      }),
  };
}
