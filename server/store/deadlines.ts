import type { Frame } from "prepick/core";
import type { Database } from "../database/database";
import { APPEND_FRAMES_SQL } from "./frames";
import { json } from "./json";

/** A run the deadline ended, with the calls that were waiting on a person. */
export interface ExpiredRun {
  /** The run. */
  runId: string;
  /** The calls it waited on, now `expired`. */
  callIds: string[];
}

/**
 * Runs' opt-in deadlines (migration 7, `prepick_runs.expires_at`): a parked run whose deadline
 * passed is cancelled, its waiting calls `expired`, never settled, so no default is applied on
 * anyone's behalf. A run with no deadline is never read here.
 */
export class DeadlineStore {
  /** @param db The store's database. */
  constructor(private readonly db: Database) {}

  /** When the next parked run's deadline passes, or undefined when no parked run has one. */
  async next(): Promise<Date | undefined> {
    const rows = await this.db.query<{ due: unknown }>(
      "SELECT min(expires_at) AS due FROM prepick_runs WHERE status = 'parked' AND expires_at IS NOT NULL",
    );
    const due = rows[0]?.due;
    return due === null || due === undefined ? undefined : new Date(due as string | Date);
  }

  /**
   * Ends every parked run whose deadline passed, in one transaction: the run `cancelled`, each call
   * it waited on `expired` (its output `{ expired: true, expiresAt }`) with a `tool-denied` frame
   * marked `expired`, and a `run-finish` marked `expired`. Runs another process is ending at the
   * same moment are skipped; with `runId`, only that run is looked at. Returns what it ended.
   */
  async expireDue(runId?: string): Promise<ExpiredRun[]> {
    return this.db.transaction(async (tx) => {
      const runs = await tx.query<{ id: string; expires_at: unknown }>(
        `UPDATE prepick_runs SET status = 'cancelled', finished_at = now(), waiting_on = NULL,
           lease_owner = NULL, lease_until = NULL
         WHERE id IN (
           SELECT id FROM prepick_runs
           WHERE status = 'parked' AND expires_at IS NOT NULL AND expires_at <= now()
             AND ($1::text IS NULL OR id = $1)
           ORDER BY expires_at LIMIT 100 FOR UPDATE SKIP LOCKED)
         RETURNING id, expires_at`,
        [runId ?? null],
      );
      const ended: ExpiredRun[] = [];
      for (const run of runs) {
        const runId = String(run.id);
        const expiresAt = new Date(run.expires_at as string | Date).toISOString();
        const calls = await tx.query<{ id: string }>(
          `UPDATE prepick_tool_calls SET status = 'expired', settled_at = now(),
             output = jsonb_build_object('expired', true, 'expiresAt', $2::text)
           WHERE run_id = $1 AND status = 'pending_approval' RETURNING id`,
          [runId, expiresAt],
        );
        const frames: Frame[] = calls.map((call) => ({
          kind: "tool-denied",
          id: String(call.id),
          reason: "expired",
          cancelled: true,
          expired: true,
        }));
        frames.push({ kind: "run-finish", status: "cancelled", expired: true });
        await tx.query(APPEND_FRAMES_SQL, [runId, json(frames)]);
        ended.push({ runId, callIds: calls.map((call) => String(call.id)) });
      }
      return ended;
    });
  }
}
