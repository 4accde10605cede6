import type { Database } from "./database";
import { openPglite } from "./open-pglite";
import { openPostgres } from "./open-postgres";

/** Where the store lives: a PostgreSQL server, or PGlite on disk or in memory. */
export interface OpenDatabaseOptions {
  /** A `postgres://` connection string (`DATABASE_URL`); when set, PGlite is not used. */
  url?: string;
  /** PGlite's folder (`PREPICK_DATA_DIR`), created if missing; without it PGlite runs in memory. */
  dataDir?: string;
}

/**
 * Opens the store's database. Both engines speak the same SQL with `$1…` parameters and return rows
 * as plain objects read the same way: json/jsonb parsed, int8 as a number, timestamptz and
 * timestamp as ISO 8601 strings in UTC (`2026-01-05T10:00:00.123Z`), date as `YYYY-MM-DD`,
 * numeric as a string. Pass a JSON parameter as `JSON.stringify(value)`: a JavaScript array is
 * read as a PostgreSQL array by `pg` but as JSON by PGlite.
 */
export function openDatabase(options: OpenDatabaseOptions = {}): Promise<Database> {
  return options.url ? openPostgres(options.url) : openPglite(options.dataDir);
}
