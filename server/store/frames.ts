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
 * The number of the run `run`'s last frame (a parameter or column), null before its first: read
 * from its last row through the primary key.
 */
export function lastSeqSql(run: string): string {
  return `(SELECT last_seq FROM prepick_frames WHERE run_id = ${run} ORDER BY first_seq DESC LIMIT 1)`;
}

/**
 * The common table expressions that append a JSON array of frames (the parameter `frames`) to
 * the run `run` (a parameter or column) as one row, numbered densely after its last frame:
 * `frame_base`, then `added` (the row's `first_seq` and `last_seq`; no row for an empty array).
 * `when` names a CTE that must hold a row for the frames to be written. Every statement that
 * writes frames uses these, and `notifyFollowers` after.
 */
export function appendFramesSql(run: string, frames: string, when?: string): string {
  return `frame_base AS (SELECT coalesce(${lastSeqSql(run)}, 0) AS seq),
    added AS (
      INSERT INTO prepick_frames (run_id, first_seq, last_seq, frames)
      SELECT ${run}, frame_base.seq + 1, frame_base.seq + jsonb_array_length(${frames}::jsonb), ${frames}::jsonb
      FROM frame_base${when ? `, (SELECT 1 FROM ${when} LIMIT 1) AS guard` : ""}
      WHERE jsonb_array_length(${frames}::jsonb) > 0
      RETURNING first_seq, last_seq)`;
}

/**
 * Select-list expressions that wake the run's followers, in every process, once frames were added
 * (the payload is `<runId> <last seq>`, so a process that already has those frames skips the read),
 * and give the first added frame's number as `first_seq`.
 */
export function notifyFollowers(run: string): string {
  return `CASE WHEN EXISTS (SELECT 1 FROM added)
      THEN pg_notify('${FRAMES_CHANNEL}', ${run} || ' ' || (SELECT last_seq FROM added)) END AS notified,
    (SELECT first_seq FROM added) AS first_seq`;
}

/**
 * Appends the JSON array of frames `$2` to the run `$1` and wakes its followers: the statement of
 * a writer that already knows it may write (inside a transaction that changed the run).
 */
export const APPEND_FRAMES_SQL = `WITH ${appendFramesSql("$1", "$2")} SELECT ${notifyFollowers("$1")}`;

/** {@link APPEND_FRAMES_SQL} as the holder of the run's lease, `$3`, and the last frame's number. */
const APPEND_HELD_SQL = `WITH ${heldSql("$1", "$3")}, ${appendFramesSql("$1", "$2", "held")}
  SELECT (SELECT last_seq FROM added) AS seq, ${notifyFollowers("$1")}`;

/**
 * Every stored frame as a row of its own, `(run_id, seq, frame, created_at)`: a subquery for
 * readers that look across runs or into frames (tests, benchmarks), not for a stream's reader.
 */
export const EACH_FRAME_SQL = `(SELECT f.run_id, f.first_seq + item.ordinality - 1 AS seq, item.frame, f.created_at
  FROM prepick_frames f, jsonb_array_elements(f.frames) WITH ORDINALITY AS item(frame, ordinality))`;

/**
 * The run `$1`'s frames after the number `$2`, in order, at most `$3`, as `seq` and `frame`
 * (`frameSql` of the frame `item.frame`): from the row holding frame `$2 + 1` on, through the
 * primary key, each row's frames unnested and numbered from its `first_seq`.
 */
function framesAfterSql(frameSql: string): string {
  return `SELECT f.first_seq + item.ordinality - 1 AS seq, ${frameSql}
    FROM prepick_frames f, jsonb_array_elements(f.frames) WITH ORDINALITY AS item(frame, ordinality)
    WHERE f.run_id = $1
      AND f.first_seq >= coalesce((SELECT max(first_seq) FROM prepick_frames
        WHERE run_id = $1 AND first_seq <= $2 + 1), 0)
      AND f.first_seq + item.ordinality - 1 > $2
    ORDER BY f.first_seq, item.ordinality LIMIT $3`;
}

const FRAMES_AFTER_SQL = framesAfterSql("item.frame");
const FRAMES_AFTER_AS_JSON_SQL = framesAfterSql("item.frame::text AS json");

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
      `SELECT ${lastSeqSql("$1")} AS last_seq,
         (SELECT status IN ('completed', 'failed', 'cancelled') FROM prepick_runs WHERE id = $1) AS ended`,
      [runId],
    );
    return { lastSeq: Number(rows[0]?.last_seq ?? 0), ended: rows[0]?.ended === true };
  }

  /** The run's frames after `after`, in order, at most `limit`. */
  async after(runId: string, after: number, limit = 500): Promise<SequencedFrame[]> {
    const rows = await this.db.query(FRAMES_AFTER_SQL, [runId, after, limit]);
    return rows.map((row) => ({ seq: Number(row.seq), frame: row.frame as Frame }));
  }

  /**
   * The run's frames after `after`, in order, at most `limit`, each frame as the JSON text the
   * database holds: a reader that only passes frames on (a thread read) neither parses nor
   * serialises them again.
   */
  async afterAsJson(runId: string, after: number, limit: number): Promise<{ seq: number; json: string }[]> {
    const rows = await this.db.query(FRAMES_AFTER_AS_JSON_SQL, [runId, after, limit]);
    return rows.map((row) => ({ seq: Number(row.seq), json: String(row.json) }));
  }
}
