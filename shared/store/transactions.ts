/**
 * TransactWriteItems with named items and the failure kinds told apart: a precondition that failed
 * (read by the name of its item, never by position); a conflict with a concurrent transaction on the
 * same items, which is retried here with jitter — the loser of a race then sees the winner's state; and a
 * cancellation for no failed condition at all (throttling of an item, a conflict that outlasted the
 * retries), which is DynamoDB's "not now", thrown as it came (the HTTP edge answers it 503), never
 * mistaken for a lost race.
 */
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from './client';
import { cancellationCodes } from './conditions';

type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A transaction item with the name its failure is read by; several items may share a name. */
export type NamedItem = TransactItem & { name: string };

export const named = (name: string, item: TransactItem): NamedItem => ({ name, ...item });

/** DynamoDB's bound on the items of one transaction. */
export const MAX_TRANSACTION_ITEMS = 100;

export class TransactionCancelled extends Error {
  constructor(
    readonly names: string[],
    readonly codes: string[],
  ) {
    super(`Transaction cancelled: ${codes.join(', ')}`);
    this.name = 'TransactionCancelled';
  }

  /** Did the precondition of an item named `name` fail? */
  failed(name: string): boolean {
    return this.codes.some((code, i) => code === 'ConditionalCheckFailed' && this.names[i] === name);
  }
}

const MAX_ATTEMPTS = 6;

/**
 * A transaction whose failed condition is an answer, not an error (done already, or not ours to do), as
 * writtenIf (./conditions.ts) is for one write: true when it was written, false when a condition failed.
 */
export async function transactedIf(write: Promise<unknown>): Promise<boolean> {
  try {
    await write;
    return true;
  } catch (error) {
    if (error instanceof TransactionCancelled) return false;
    throw error;
  }
}

export async function transactWrite(items: NamedItem[]): Promise<void> {
  const names = items.map((item) => item.name);
  const TransactItems = items.map(({ name: _name, ...item }) => item);
  for (let attempt = 1; ; attempt += 1) {
    try {
      await dynamo.send(new TransactWriteCommand({ TransactItems }));
      return;
    } catch (error) {
      const codes = cancellationCodes(error);
      if (!codes) throw error;
      const conflicted = codes.includes('TransactionConflict');
      if (!conflicted || attempt >= MAX_ATTEMPTS) {
        if (!codes.includes('ConditionalCheckFailed')) throw error;
        throw new TransactionCancelled(names, codes);
      }
      await new Promise((r) => setTimeout(r, Math.random() * 20 * 2 ** attempt));
    }
  }
}
