/** Something SQL can be sent to: the database itself, or one transaction on it. */
export interface Queryable {
  /** Runs one statement with `$1, $2…` parameters and returns its rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<Row[]>;
}

/**
 * The store's one view of PostgreSQL, whether embedded (PGlite, on disk or in memory) or a real
 * server (`DATABASE_URL`). The same SQL and migrations run on both.
 */
export interface Database extends Queryable {
  /** Which engine answers: `pglite` (embedded) or `postgres`. */
  readonly kind: "pglite" | "postgres";
  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  transaction<T>(work: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Calls `onNotify` for every NOTIFY on `channel`, from any process; resolves to a stop function. */
  listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>>;
  /** Sends a NOTIFY on `channel` (outside a transaction; use `pg_notify` in SQL inside one). */
  notify(channel: string, payload: string): Promise<void>;
  /** Closes every connection. */
  close(): Promise<void>;
}
