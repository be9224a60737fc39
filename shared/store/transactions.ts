/**
 * TransactWriteItems with the two failure kinds told apart: a precondition that failed (the caller
 * decides what that means, item by item) and a conflict with a concurrent transaction on the same items,
 * which is retried here with jitter — the loser of a race then sees the winner's state and answers 409.
 */
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { dynamo } from './client';
import { cancellationCodes } from './conditions';

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;

export class TransactionCancelled extends Error {
  constructor(readonly codes: string[]) {
    super(`Transaction cancelled: ${codes.join(', ')}`);
    this.name = 'TransactionCancelled';
  }

  /** Did the precondition of the item at `index` (request order) fail? */
  failedAt(index: number): boolean {
    return this.codes[index] === 'ConditionalCheckFailed';
  }
}

const MAX_ATTEMPTS = 6;

export async function transactWrite(items: TransactItems): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      await dynamo.send(new TransactWriteCommand({ TransactItems: items }));
      return;
    } catch (error) {
      const codes = cancellationCodes(error);
      if (!codes) throw error;
      const conflicted = codes.includes('TransactionConflict');
      if (!conflicted || attempt >= MAX_ATTEMPTS) {
        if (conflicted) throw error;
        throw new TransactionCancelled(codes);
      }
      await new Promise((r) => setTimeout(r, Math.random() * 20 * 2 ** attempt));
    }
  }
}
