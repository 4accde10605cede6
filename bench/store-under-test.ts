import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Database, openDatabase } from "prepick/server";
import { type PostgresCluster, startPostgres } from "../tests/support/postgres";

/** A database for one benchmark, and how to get rid of it. */
export interface StoreUnderTest {
  /** `PGlite on disk` or `PostgreSQL`. */
  label: string;
  /** The open database. */
  db: Database;
  /** Closes the database and removes its files (or its cluster). */
  dispose(): Promise<void>;
}

let cluster: Promise<PostgresCluster> | undefined;
let databases = 0;

/**
 * The one PostgreSQL server every benchmark of a run shares, ours and the peers' alike: started
 * by the bench on loopback, with the server's defaults (fsync and synchronous commits on).
 */
export function benchCluster(): Promise<PostgresCluster> {
  cluster ??= startPostgres("prepick_bench", { serverDefaults: true });
  return cluster;
}

/** A fresh database on the bench's PostgreSQL server. */
export async function benchDatabase(name: string): Promise<string> {
  databases += 1;
  return (await benchCluster()).createDatabase(`${name}_${databases}`);
}

/**
 * The data folder of the bench's PostgreSQL server, whose processes' CPU the CPU-per-run rows read
 * (`bench/process-cpu.ts`); undefined for PGlite, which runs in this process.
 */
export async function benchPostgresDataDir(kind: "pglite" | "postgres"): Promise<string | undefined> {
  return kind === "postgres" ? join((await benchCluster()).directory, "data") : undefined;
}

/** Stops the bench's PostgreSQL server, if one was started. */
export async function stopBenchCluster(): Promise<void> {
  await (await cluster)?.stop();
}

/** Opens PGlite in a temp folder, or a fresh database on the bench's PostgreSQL server. */
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
  const db = await openDatabase({ url: await benchDatabase("prepick") });
  return { label: "PostgreSQL", db, dispose: () => db.close() };
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
