import type { Frame, SequencedFrame } from "prepick/core";
import type { Database } from "../database/database";
import { FRAMES_CHANNEL } from "./channels";
import { heldSql } from "./held";
import { jsonArrayOnce } from "./json";

/**
 * Told of every batch of frames this process writes, once its statement has committed: the
 * frames, in order, the first numbered `first`. The live streams take them from here rather than
 * reading back what was just written.
 */
export type FramesWritten = (runId: string, first: number, frames: readonly Frame[]) => void;

/** A statement's `first_seq` column as a number, undefined when it wrote no frame. */
export function firstSeqOf(row: { first_seq?: unknown } | undefined): number | undefined {
  const value = row?.first_seq;
  return value === null || value === undefined ? undefined : Number(value);
}

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

/**
 * Select-list expressions that wake the run's followers, in every process, once frames were added
 * (the payload is `<runId> <last seq>`, so a process that already has those frames skips the read),
 * and give the first added frame's number as `first_seq`.
 */
export function notifyFollowers(run: string): string {
  return `CASE WHEN EXISTS (SELECT 1 FROM added)
      THEN pg_notify('${FRAMES_CHANNEL}', ${run} || ' ' || (SELECT max(seq) FROM added)) END AS notified,
    (SELECT min(seq) FROM added) AS first_seq`;
}

/**
 * Appends the JSON array of frames `$2` to the run `$1` and wakes its followers: the statement of
 * a writer that already knows it may write (inside a transaction that changed the run).
 */
export const APPEND_FRAMES_SQL = `WITH ${appendFramesSql("$1", "$2")} SELECT ${notifyFollowers("$1")}`;

/** {@link APPEND_FRAMES_SQL} as the holder of the run's lease, `$3`, and the last frame's number. */
const APPEND_HELD_SQL = `WITH ${heldSql("$1", "$3")}, ${appendFramesSql("$1", "$2", "held")}
  SELECT (SELECT max(seq) FROM added) AS seq, ${notifyFollowers("$1")}`;

/** Reads a frames notification's payload: the run, and the last frame's number when it says. */
export function readFramesNotification(payload: string): { runId: string; lastSeq: number | undefined } {
  const space = payload.lastIndexOf(" ");
  if (space === -1) return { runId: payload, lastSeq: undefined };
  const lastSeq = Number(payload.slice(space + 1));
  return Number.isInteger(lastSeq)
    ? { runId: payload.slice(0, space), lastSeq }
    : { runId: payload, lastSeq: undefined };
}

/** The frames of runs: their streams, stored so a reader resumes from its last sequence number. */
export class FrameStore {
  /**
   * @param db The store's database.
   * @param written Told of the frames this store writes.
   */
  constructor(
    private readonly db: Database,
    private readonly written: FramesWritten,
  ) {}

  /**
   * Appends frames of a running run, as the holder of its lease (`owner`; see `heldSql`), with
   * the run's next sequence numbers, dense and in order, and wakes its followers once: one
   * statement, however many frames. Returns the last sequence number; undefined when none was written.
   */
  async append(runId: string, owner: string, frames: readonly Frame[]): Promise<number | undefined> {
    if (frames.length === 0) return undefined;
    const rows = await this.db.query<{ seq: number | null; first_seq: number | null }>(APPEND_HELD_SQL, [
      runId,
      jsonArrayOnce(frames),
      owner,
    ]);
    const first = firstSeqOf(rows[0]);
    if (first === undefined) return undefined;
    this.written(runId, first, frames);
    return first + frames.length - 1;
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
}
