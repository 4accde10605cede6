import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, openDatabase } from "prepick/server";
import { startPostgres } from "../tests/support/postgres";

/** A database for one benchmark, and how to get rid of it. */
export interface StoreUnderTest {
  /** `PGlite on disk` or `PostgreSQL`. */
  label: string;
  /** The open database. */
  db: Database;
  /** Closes the database and removes its files (or its cluster). */
  dispose(): Promise<void>;
}

/** Opens PGlite in a temp folder, or a throwaway PostgreSQL cluster on loopback. */
export async function openStoreUnderTest(kind: "pglite" | "postgres"): Promise<StoreUnderTest> {
  if (kind === "pglite") {
    const folder = mkdtempSync(join(tmpdir(), "prepick-bench-"));
    const db = await openDatabase({ dataDir: join(folder, "store") });
    return {
      label: "PGlite on disk",
      db,
      dispose: async () => {
        await db.close();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  }
  const cluster = await startPostgres("prepick_bench");
  const db = await openDatabase({ url: cluster.url });
  return {
    label: "PostgreSQL",
    db,
    dispose: async () => {
      await db.close();
      await cluster.stop();
    },
  };
}

/**
 * The store's own round trip, measured `samples` times: one row written in a transaction with a
 * NOTIFY, until this process hears the notification. What any resume path must pay at least.
 */
export async function writeNotifyRoundTrips(db: Database, samples: number): Promise<number[]> {
  await db.query("CREATE TABLE IF NOT EXISTS bench_round_trip (id serial PRIMARY KEY, note text NOT NULL)");
  const waiting = new Map<string, () => void>();
  const unlisten = await db.listen("bench_round_trip", (payload) => waiting.get(payload)?.());
  const times: number[] = [];
  try {
    for (let index = 0; index < samples; index++) {
      const key = String(index);
      const heard = new Promise<void>((resolve) => waiting.set(key, resolve));
      const started = performance.now();
      await db.transaction(async (tx) => {
        await tx.query("INSERT INTO bench_round_trip (note) VALUES ($1)", [key]);
        await tx.query("SELECT pg_notify('bench_round_trip', $1)", [key]);
      });
      await heard;
      times.push(performance.now() - started);
      waiting.delete(key);
    }
  } finally {
    await unlisten();
  }
  return times;
}

/** Single-row updates per second, `total` of them from `concurrency` concurrent callers. */
export async function rawUpdateThroughput(db: Database, total: number, concurrency: number): Promise<number> {
  await db.query("CREATE TABLE IF NOT EXISTS bench_updates (id int PRIMARY KEY, hits int NOT NULL)");
  await db.query(
    "INSERT INTO bench_updates SELECT i, 0 FROM generate_series(1, $1::int) AS i ON CONFLICT DO NOTHING",
    [total],
  );
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        next += 1;
        await db.query("UPDATE bench_updates SET hits = hits + 1 WHERE id = $1", [next]);
      }
    }),
  );
  return total / ((performance.now() - started) / 1000);
}
