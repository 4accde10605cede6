import type { Database } from "../database/database";
import { MIGRATIONS } from "./migrations";

// Serialises migrations across processes that start at the same time against one PostgreSQL.
const MIGRATION_LOCK = 7_361_402;

/** Brings the schema up to date; safe to call from several processes at once. */
export async function migrate(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query("SELECT pg_advisory_xact_lock($1)", [MIGRATION_LOCK]);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS prepick_migrations (
        version integer PRIMARY KEY,
        applied_at timestamptz NOT NULL DEFAULT now()
      )`,
    );
    const applied = await tx.query<{ version: number }>("SELECT version FROM prepick_migrations");
    const done = new Set(applied.map((row) => Number(row.version)));
    for (const migration of MIGRATIONS) {
      if (done.has(migration.version)) continue;
      for (const statement of migration.statements) await tx.query(statement);
      await tx.query("INSERT INTO prepick_migrations (version) VALUES ($1)", [migration.version]);
    }
  });
}
