import type { ModelMessage } from "ai";
import type { Frame, Question } from "prepick/core";
import type { Database } from "../database/database";
import { appendFramesSql, type FramesWritten, firstSeqOf, notifyFollowers } from "./frames";
import { heldSql } from "./held";
import { json, jsonArrayOnce } from "./json";
import type { CheckpointRow, ToolCallStatus } from "./rows";

/** One model call's usage, as a usage row of its run records it. */
export interface NewUsage {
  step: number;
  model: string;
  input?: number;
  output?: number;
  total?: number;
}

/** A new tool-call row of the run the checkpoint belongs to. */
export interface NewToolCall {
  id: string;
  threadId: string;
  actorId: string;
  name: string;
  status: ToolCallStatus;
  input: unknown;
  /** An editable approval's questions. */
  questions?: Question[];
}

/** A tool-call row the step moves from one status to another, with its output. */
export interface MovedToolCall {
  id: string;
  from: ToolCallStatus;
  to: ToolCallStatus;
  output: unknown;
}

/** Everything a step writes beside its checkpoint, committed with it in the same statement. */
export interface StepRows {
  /** Frames to append, in order. */
  frames?: readonly Frame[];
  /** Usage rows of the run's model calls. */
  usage?: readonly NewUsage[];
  /** Tool-call rows to insert. */
  newCalls?: readonly NewToolCall[];
  /** Tool-call rows to settle; a row no longer in `from` is left as it is. */
  movedCalls?: readonly MovedToolCall[];
  /**
   * Ends the run as completed with these model messages (the turn's), in the same statement: the
   * turn's last step. Its `run-finish` frame is the last of `frames`.
   */
  completes?: { modelMessages: readonly ModelMessage[] };
}

/** What recording a checkpoint saw, from its own statement. */
export interface Recorded {
  /** False when the writer no longer holds the run's lease: nothing was written. */
  held: boolean;
  /** The last frame's sequence number, when the step wrote frames. */
  seq: number | undefined;
  /** The first frame's sequence number, when the step wrote frames. */
  first: number | undefined;
  /** Whether someone asked to cancel the run. */
  cancelRequested: boolean;
}

/**
 * The journal of every run's checkpoints, as a select-list expression for `run` (a parameter or
 * column): `[{ position, name, result }]` in order, for statements that hand a run to a worker.
 */
export function journalSql(run: string, alsoFrom?: string): string {
  const rows = `SELECT position, name, result FROM prepick_checkpoints WHERE run_id = ${run}${
    alsoFrom ? ` UNION ALL SELECT position, name, result FROM ${alsoFrom}` : ""
  }`;
  return `(SELECT coalesce(jsonb_agg(jsonb_build_object('position', j.position, 'name', j.name,
    'result', j.result) ORDER BY j.position), '[]'::jsonb) FROM (${rows}) AS j)`;
}

/**
 * The statement that records a step's checkpoints with every row it wrote (see
 * `CheckpointStore.record`). Each data-modifying part runs to its end whether or not the select
 * reads it, so the select returns only what the caller reads: the driver parses every column it
 * is sent. One text, built once: the driver compares it with the prepared one on every call.
 */
const RECORD_SQL = `WITH ${heldSql("$1", "$7")},
   recorded AS (
     INSERT INTO prepick_checkpoints (run_id, position, name, result)
     SELECT $1, entry.position, entry.name, entry.result
     FROM held, jsonb_to_recordset($2::jsonb) AS entry(position integer, name text, result jsonb)
     RETURNING position),
   ${appendFramesSql("$1", "$3", "held")},
   used AS (
     INSERT INTO prepick_usage (run_id, step, model, input_tokens, output_tokens, total_tokens)
     SELECT $1, used.step, used.model, used.input, used.output, used.total
     FROM held, jsonb_to_recordset($4::jsonb)
       AS used(step integer, model text, input integer, output integer, total integer)
     RETURNING id),
   inserted AS (
     INSERT INTO prepick_tool_calls (id, run_id, thread_id, actor_id, name, tool_type, status, input, questions)
     SELECT call.id, $1, call."threadId", call."actorId", call.name, 'action', call.status, call.input,
       call.questions
     FROM held, jsonb_to_recordset($5::jsonb)
       AS call(id text, "threadId" text, "actorId" text, name text, status text, input jsonb, questions jsonb)
     RETURNING id),
   moved AS (
     UPDATE prepick_tool_calls t SET status = move."to", output = move.output, settled_at = now()
     FROM held, jsonb_to_recordset($6::jsonb) AS move(id text, "from" text, "to" text, output jsonb)
     WHERE t.id = move.id AND t.status = move."from"
     RETURNING t.id),
   completed AS (
     UPDATE prepick_runs SET status = 'completed', model_messages = $9::jsonb, lease_owner = NULL,
       lease_until = NULL, finished_at = now()
     FROM held WHERE id = $1 AND $8::boolean
     RETURNING id)
   SELECT (SELECT last_seq FROM added) AS seq,
     (SELECT cancel_requested FROM held) AS cancel_requested, EXISTS (SELECT 1 FROM held) AS held,
     ${notifyFollowers("$1")}`;

/** The runs' checkpoint journals: each step's name and result, in order, and what it wrote. */
export class CheckpointStore {
  /**
   * @param db The store's database.
   * @param written Told of the frames this store writes.
   */
  constructor(
    private readonly db: Database,
    private readonly written: FramesWritten,
  ) {}

  /** The run's journal, in order. */
  async list(runId: string): Promise<CheckpointRow[]> {
    const rows = await this.db.query(
      "SELECT position, name, result FROM prepick_checkpoints WHERE run_id = $1 ORDER BY position",
      [runId],
    );
    return rows.map((row) => ({
      position: Number(row.position),
      name: String(row.name),
      result: row.result,
    }));
  }

  /**
   * Records checkpoints with every row the step wrote (frames, usage, tool calls) in one
   * statement: atomic without a transaction, one round trip, and it fails whole if a position is
   * taken (another process got there first). Followers are woken when frames were added. The same
   * statement reads whether the run was asked to stop, so no step needs a read of its own for it.
   * Only the process holding the run's lease (`owner`) writes: one whose lease lapsed while it
   * stalled, and whose run another process took over, writes nothing and is told so.
   */
  async record(
    runId: string,
    owner: string,
    entries: readonly CheckpointRow[],
    rows: StepRows = {},
  ): Promise<Recorded> {
    const { frames = [], usage = [], newCalls = [], movedCalls = [], completes } = rows;
    const result = await this.db.query<{
      seq: number | null;
      first_seq: number | null;
      cancel_requested: boolean | null;
      held: boolean;
    }>(RECORD_SQL, [
      runId,
      jsonArrayOnce(entries),
      jsonArrayOnce(frames),
      json(usage),
      json(newCalls),
      json(movedCalls),
      owner,
      completes !== undefined,
      json(completes?.modelMessages ?? null),
    ]);
    const last = result[0]?.seq;
    const first = firstSeqOf(result[0]);
    if (first !== undefined) this.written(runId, first, frames);
    return {
      held: result[0]?.held === true,
      seq: last === null || last === undefined ? undefined : Number(last),
      first,
      cancelRequested: result[0]?.cancel_requested === true,
    };
  }
}
