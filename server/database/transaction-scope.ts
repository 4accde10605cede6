import { AsyncLocalStorage } from "node:async_hooks";

interface Scope {
  database: object;
  open: boolean;
}

const scope = new AsyncLocalStorage<Scope>();

/**
 * Runs a transaction's work marked as "inside a transaction of `database`", so that a call to
 * the database itself from that work fails at once instead of hanging: PGlite has one connection,
 * so such a call would wait for the very transaction that waits for it. Work started inside and
 * still running after the transaction ends is no longer marked.
 */
export async function inTransactionScope<T>(database: object, work: () => Promise<T>): Promise<T> {
  const marker: Scope = { database, open: true };
  try {
    return await scope.run(marker, work);
  } finally {
    marker.open = false;
  }
}

/** Throws when called from inside a transaction's work on the same database. */
export function assertOutsideTransaction(database: object, operation: string): void {
  const current = scope.getStore();
  if (current?.open && current.database === database) {
    throw new Error(
      `database.${operation}() was called inside database.transaction(): run the statement on the ` +
        "transaction's own `tx` (a second connection would wait for this transaction, or see none of its work)",
    );
  }
}

/** Runs `callback` unmarked, e.g. a notification delivered while a transaction commits. */
export function outsideTransactionScope<T>(callback: () => T): T {
  return scope.exit(callback);
}
