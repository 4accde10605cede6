import type { Database } from "../database/database";
import { lastSeqSql } from "./frames";

/** How many finished runs one pruning transaction takes. */
const PRUNE_BATCH = 200;

/**
 * Removes what finished runs no longer need once they are older than the retention: their
 * checkpoints (a finished run is never replayed) and their frames but the first and the last
 * (`run-start` and `run-finish`, so the run's stream still opens and ends). The run row stays,
 * with the person's message, the status and the model messages later turns read, and so do the
 * tool-call and usage rows. A run that is not finished (ready, running, parked) is never touched.
 */
export class RetentionStore {
  /** @param db The store's database. */
  constructor(private readonly db: Database) {}

  /** Prunes every run that finished more than `olderThanMs` ago and was not pruned yet; returns how many. */
  async prune(olderThanMs: number): Promise<number> {
    let pruned = 0;
    for (;;) {
      const batch = await this.db.transaction(async (tx) => {
        const rows = await tx.query<{ id: string }>(
          `UPDATE prepick_runs SET pruned_at = now()
           WHERE id IN (
             SELECT id FROM prepick_runs
             WHERE pruned_at IS NULL AND status IN ('completed', 'failed', 'cancelled')
               AND finished_at < now() - ($1 * interval '1 millisecond')
             ORDER BY finished_at LIMIT $2 FOR UPDATE SKIP LOCKED)
           RETURNING id`,
          [olderThanMs, PRUNE_BATCH],
        );
        if (rows.length === 0) return 0;
        const ids = JSON.stringify(rows.map((row) => String(row.id)));
        await tx.query(
          "DELETE FROM prepick_checkpoints WHERE run_id IN (SELECT jsonb_array_elements_text($1::jsonb))",
          [ids],
        );
        // A write's frames are one row: every row but the first (`run-start` alone) and the
        // last goes, then the last is cut to its last frame, which keeps its number.
        await tx.query(
          `DELETE FROM prepick_frames f
           WHERE f.run_id IN (SELECT jsonb_array_elements_text($1::jsonb)) AND f.first_seq > 1
             AND f.last_seq < ${lastSeqSql("f.run_id")}`,
          [ids],
        );
        await tx.query(
          `UPDATE prepick_frames SET first_seq = last_seq, frames = jsonb_build_array(frames -> -1)
           WHERE run_id IN (SELECT jsonb_array_elements_text($1::jsonb)) AND first_seq > 1
             AND first_seq < last_seq`,
          [ids],
        );
        return rows.length;
      });
      pruned += batch;
      if (batch < PRUNE_BATCH) return pruned;
    }
  }
}

/**
 * Prunes finished runs past `retentionMs` now and then every so often (a tenth of the retention,
 * between a second and an hour), in the background, until the returned function is called. Every
 * process may sweep: runs one takes are skipped by the others.
 */
export function sweepRetention(
  store: { retention: RetentionStore },
  retentionMs: number,
  onError: (error: unknown) => void,
) {
  const every = Math.min(Math.max(Math.floor(retentionMs / 10), 1_000), 3_600_000);
  let running: Promise<unknown> = Promise.resolve();
  const sweep = () => {
    running = store.retention.prune(retentionMs).catch(onError);
  };
  sweep();
  const timer = setInterval(sweep, every);
  timer.unref?.();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
