import { appendReceipt } from '../../state/receipt-log.js';
import type { Receipt } from '../../core/receipt.js';

/**
 * Appends each receipt to `path`. A receipt that cannot be written never stops the loop, but it
 * is not lost without a word either: the first failure is said once (the resume after a crash
 * counts what the receipts hold, so missing ones would make it count less than was spent).
 */
export function createReceiptWriter(path: string, warn: (message: string) => void): (receipt: Receipt) => void {
  let warned = false;
  return (receipt) => {
    try {
      appendReceipt(path, receipt);
    } catch (error) {
      if (warned) return;
      warned = true;
      warn(
        `The receipts cannot be written to ${path} (${(error as Error).message}): this run's iterations are not recorded there, ` +
          'and a resume after a crash would not count them. Make it a regular file (or remove it) before the next run.',
      );
    }
  };
}
