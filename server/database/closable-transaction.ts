import type { Queryable } from "./database";

/**
 * Hands a transaction's work a `tx` that refuses statements once the transaction has ended, so a
 * late statement fails loudly instead of running outside the transaction it was written for.
 */
export function closableTransaction(
  run: (sql: string, params: readonly unknown[]) => Promise<Record<string, unknown>[]>,
): { tx: Queryable; close: () => void } {
  let closed = false;
  const tx: Queryable = {
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      if (closed) {
        throw new Error(`tx.query() was called after its transaction ended; the statement was: ${sql}`);
      }
      return (await run(sql, params)) as Row[];
    },
  };
  return {
    tx,
    close: () => {
      closed = true;
    },
  };
}
