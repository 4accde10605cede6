import type { Frame, SequencedFrame } from "prepick/core";
import type { Database } from "../database/database";
import { FRAMES_CHANNEL } from "./channels";
import { heldSql } from "./held";
import { json } from "./json";

/**
 * The common table expressions that append a JSON array of frames (the parameter `frames`) to
 * the run `run` (a parameter or column), numbered densely after its last frame: `frame_base`,
 * then `added` (the new frames' `seq`). `when` names a CTE that must hold a row for the frames
 * to be written. Every statement that writes frames uses these, and `notifyFollowers` after.
 */
export function appendFramesSql(run: string, frames: string, when?: string): string {
  return `frame_base AS (SELECT coalesce(max(seq), 0) AS seq FROM prepick_frames WHERE run_id = ${run}),
    added AS (
      INSERT INTO prepick_frames (run_id, seq, frame)
      SELECT ${run}, frame_base.seq + item.ordinality, item.frame
      FROM frame_base${when ? `, (SELECT 1 FROM ${when} LIMIT 1) AS guard` : ""},
        jsonb_array_elements(${frames}::jsonb) WITH ORDINALITY AS item(frame, ordinality)
      RETURNING seq)`;
}

/** A select-list expression that wakes the run's followers, in every process, once frames were added. */
export function notifyFollowers(run: string): string {
  return `CASE WHEN EXISTS (SELECT 1 FROM added) THEN pg_notify('${FRAMES_CHANNEL}', ${run}) END`;
}

/** The frames of runs: their streams, stored so a reader resumes from its last sequence number. */
export class FrameStore {
  /** @param db The store's database. */
  constructor(private readonly db: Database) {}

  /**
   * Appends frames of a running run, as the holder of its lease (`owner`; see `heldSql`), with
   * the run's next sequence numbers, dense and in order, and wakes its followers once: one
   * statement, however many frames. Returns the last sequence number; undefined when none was written.
   */
  async append(runId: string, owner: string, frames: readonly Frame[]): Promise<number | undefined> {
    if (frames.length === 0) return undefined;
    const rows = await this.db.query<{ seq: number | null }>(
      `WITH ${heldSql("$1", "$3")}, ${appendFramesSql("$1", "$2", "held")}
       SELECT (SELECT max(seq) FROM added) AS seq, ${notifyFollowers("$1")} AS notified`,
      [runId, json(frames), owner],
    );
    const last = rows[0]?.seq;
    return last === null || last === undefined ? undefined : Number(last);
  }

  /**
   * The run's last sequence number (0 before its first frame) and whether the run has ended, read
   * together: a run's end and its last frame are written in one statement, so an ended run's
   * `lastSeq` is final.
   */
  async tail(runId: string): Promise<{ lastSeq: number; ended: boolean }> {
    const rows = await this.db.query<{ last_seq: number | null; ended: boolean | null }>(
      `SELECT (SELECT max(seq) FROM prepick_frames WHERE run_id = $1) AS last_seq,
         (SELECT status IN ('completed', 'failed', 'cancelled') FROM prepick_runs WHERE id = $1) AS ended`,
      [runId],
    );
    return { lastSeq: Number(rows[0]?.last_seq ?? 0), ended: rows[0]?.ended === true };
  }

  /** The run's frames after `after`, in order, at most `limit`. */
  async after(runId: string, after: number, limit = 500): Promise<SequencedFrame[]> {
    const rows = await this.db.query(
      "SELECT seq, frame FROM prepick_frames WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
      [runId, after, limit],
    );
    return rows.map((row) => ({ seq: Number(row.seq), frame: row.frame as Frame }));
  }

  /**
   * The run's frames after `after`, in order, at most `limit`, each frame as the JSON text the
   * database holds: a reader that only passes frames on (a thread read) neither parses nor
   * serialises them again.
   */
  async afterAsJson(runId: string, after: number, limit: number): Promise<{ seq: number; json: string }[]> {
    const rows = await this.db.query(
      "SELECT seq, frame::text AS json FROM prepick_frames WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
      [runId, after, limit],
    );
    return rows.map((row) => ({ seq: Number(row.seq), json: String(row.json) }));
  }

  /**
   * The frames a model call left without finishing: from the last `step-start` of `step` on, when
   * no checkpoint closed it (its process died mid-call). Empty when the call never started.
   */
  async unfinishedStep(runId: string, step: number): Promise<Frame[]> {
    const rows = await this.db.query(
      `SELECT frame FROM prepick_frames WHERE run_id = $1 AND seq >= (
         SELECT max(seq) FROM prepick_frames
         WHERE run_id = $1 AND frame->>'kind' = 'step-start' AND (frame->>'step')::int = $2)
       ORDER BY seq`,
      [runId, step],
    );
    return rows.map((row) => row.frame as Frame);
  }
}
