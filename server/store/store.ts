import type { ModelMessage } from "ai";
import type { Frame, SequencedFrame } from "prepick/core";
import type { Database, Queryable } from "../database/database";
import { migrate } from "./migrate";
import type {
  CheckpointRow,
  OwnedToolCall,
  RunRow,
  RunStatus,
  ThreadRow,
  ToolCallRow,
  ToolCallStatus,
  UserMessage,
} from "./rows";

/** The NOTIFY channel that says a run became ready; the payload is the run id. */
export const RUNS_CHANNEL = "prepick_runs";
/** The NOTIFY channel that says a run has new frames; the payload is the run id. */
export const FRAMES_CHANNEL = "prepick_frames";

type Row = Record<string, unknown>;

const json = (value: unknown) => JSON.stringify(value ?? null);
// Timestamps come as Dates from a column and as text from `to_jsonb`; both leave as ISO strings.
const iso = (value: unknown) => (value instanceof Date ? value : new Date(String(value))).toISOString();
const isoOrNull = (value: unknown) => (value === null || value === undefined ? null : iso(value));

function toThread(row: Row): ThreadRow {
  return {
    id: String(row.id),
    actorId: String(row.actor_id),
    agent: String(row.agent),
    createdAt: iso(row.created_at),
  };
}

function toRun(row: Row): RunRow {
  return {
    id: String(row.id),
    threadId: String(row.thread_id),
    actorId: String(row.actor_id),
    agent: String(row.agent),
    turn: Number(row.turn),
    messageId: String(row.message_id),
    userMessage: row.user_message as UserMessage,
    status: row.status as RunStatus,
    wakePending: Boolean(row.wake_pending),
    cancelRequested: Boolean(row.cancel_requested),
    error: row.error === null || row.error === undefined ? null : String(row.error),
    modelMessages: (row.model_messages ?? null) as ModelMessage[] | null,
    createdAt: iso(row.created_at),
  };
}

function toToolCall(row: Row): OwnedToolCall {
  return {
    id: String(row.id),
    runId: String(row.run_id),
    threadId: String(row.thread_id),
    actorId: String(row.actor_id),
    name: String(row.name),
    toolType: String(row.tool_type),
    status: row.status as ToolCallStatus,
    input: row.input ?? null,
    output: row.output ?? null,
    createdAt: iso(row.created_at),
    settledAt: isoOrNull(row.settled_at),
  };
}

/** A journal aggregated by a statement (`jsonb_agg` of position, name, result), in order. */
function toJournal(value: unknown): CheckpointRow[] {
  const entries = (value ?? []) as { position: number; name: string; result: unknown }[];
  return entries.map((entry) => ({
    position: Number(entry.position),
    name: String(entry.name),
    result: entry.result,
  }));
}

/** A dense batch of frames with their numbers, given the last one's; undefined without it. */
function numbered(frames: readonly Frame[], last: unknown): SequencedFrame[] | undefined {
  const end = Number(last);
  if (last === null || last === undefined || !Number.isInteger(end)) return undefined;
  return frames.map((frame, index) => ({ seq: end - frames.length + 1 + index, frame }));
}

/** Strips the owner from a tool-call row for the wire. */
export function publicToolCall(row: OwnedToolCall): ToolCallRow {
  const { actorId: _owner, ...rest } = row;
  return rest;
}

/** One model call's usage, as a usage row of its run records it. */
export interface NewUsage {
  step: number;
  model: string;
  input?: number;
  output?: number;
  total?: number;
}

/** What a checkpoint's own statement may write beside it. */
export interface CheckpointRows {
  /** Frames to append, in order. */
  frames?: readonly Frame[];
  /** Usage rows of the run's model calls. */
  usage?: readonly NewUsage[];
}

/** A new tool-call row. */
export interface NewToolCall {
  id: string;
  runId: string;
  threadId: string;
  actorId: string;
  name: string;
  status: ToolCallStatus;
  input: unknown;
}

/** What starting a run may come to. */
export type StartRunResult =
  | { kind: "started"; run: RunRow }
  | { kind: "busy"; runId: string }
  | { kind: "not-found" }
  | { kind: "other-agent"; agent: string };

/**
 * Every read and write of the reference server's state. Methods that take a `Queryable` run
 * inside the caller's transaction, so a checkpoint and the rows it stands for commit together.
 */
export class Store {
  private readonly frameListeners = new Set<(runId: string, frames?: readonly SequencedFrame[]) => void>();

  /** @param db The database the store lives in. */
  constructor(readonly db: Database) {}

  /**
   * Calls `listener` when this process committed frames of a run, so its own followers need not
   * wait for the NOTIFY to come back from the database; with the frames themselves when the
   * writer knows their numbers. Returns the function that removes it.
   */
  onFramesCommitted(listener: (runId: string, frames?: readonly SequencedFrame[]) => void): () => void {
    this.frameListeners.add(listener);
    return () => this.frameListeners.delete(listener);
  }

  /** Tells this process's followers that frames of `runId` committed (`frames`, when known). */
  framesCommitted(runId: string, frames?: readonly SequencedFrame[]): void {
    for (const listener of this.frameListeners) listener(runId, frames);
  }

  /** Brings the schema up to date. */
  migrate(): Promise<void> {
    return migrate(this.db);
  }

  /** Creates the thread if needed and a `ready` run on it, in one transaction. */
  async startRun(input: {
    threadId: string;
    createThread: boolean;
    actorId: string;
    agent: string;
    runId: string;
    messageId: string;
    userMessage: UserMessage;
  }): Promise<StartRunResult> {
    try {
      return await this.startRunOnce(input);
    } catch (error) {
      // Two requests raced to start a turn on one thread: the unique index let one through.
      if ((error as { code?: string }).code !== "23505") throw error;
      const active = await this.db.query<{ id: string }>(
        "SELECT id FROM prepick_runs WHERE thread_id = $1 AND status IN ('ready', 'running', 'parked')",
        [input.threadId],
      );
      if (active[0]) return { kind: "busy", runId: String(active[0].id) };
      return this.startRunOnce(input);
    }
  }

  private startRunOnce(input: Parameters<Store["startRun"]>[0]): Promise<StartRunResult> {
    return this.db.transaction(async (tx) => {
      const threads = await tx.query("SELECT * FROM prepick_threads WHERE id = $1 FOR UPDATE", [
        input.threadId,
      ]);
      const thread = threads[0] ? toThread(threads[0]) : undefined;
      if (thread && thread.actorId !== input.actorId) return { kind: "not-found" } as const;
      if (!thread && !input.createThread) return { kind: "not-found" } as const;
      if (thread && thread.agent !== input.agent)
        return { kind: "other-agent", agent: thread.agent } as const;
      if (!thread) {
        await tx.query("INSERT INTO prepick_threads (id, actor_id, agent) VALUES ($1, $2, $3)", [
          input.threadId,
          input.actorId,
          input.agent,
        ]);
      }
      const active = await tx.query<{ id: string }>(
        "SELECT id FROM prepick_runs WHERE thread_id = $1 AND status IN ('ready', 'running', 'parked')",
        [input.threadId],
      );
      if (active[0]) return { kind: "busy", runId: String(active[0].id) } as const;
      const rows = await tx.query(
        `INSERT INTO prepick_runs (id, thread_id, actor_id, agent, turn, message_id, user_message, status)
         VALUES ($1, $2, $3, $4,
           (SELECT count(*) FROM prepick_runs WHERE thread_id = $2), $5, $6::jsonb, 'ready')
         RETURNING *`,
        [input.runId, input.threadId, input.actorId, input.agent, input.messageId, json(input.userMessage)],
      );
      return { kind: "started", run: toRun(rows[0] as Row) } as const;
    });
  }

  /** A thread by id. */
  async thread(threadId: string): Promise<ThreadRow | undefined> {
    const rows = await this.db.query("SELECT * FROM prepick_threads WHERE id = $1", [threadId]);
    return rows[0] ? toThread(rows[0]) : undefined;
  }

  /** A run by id. */
  async run(runId: string, q: Queryable = this.db): Promise<RunRow | undefined> {
    const rows = await q.query("SELECT * FROM prepick_runs WHERE id = $1", [runId]);
    return rows[0] ? toRun(rows[0]) : undefined;
  }

  /** A thread's runs in turn order. */
  async threadRuns(threadId: string): Promise<RunRow[]> {
    const rows = await this.db.query("SELECT * FROM prepick_runs WHERE thread_id = $1 ORDER BY turn", [
      threadId,
    ]);
    return rows.map(toRun);
  }

  /** Whether an earlier run of the thread already had its intake answered or skipped. */
  async threadWasAsked(threadId: string, runId: string): Promise<boolean> {
    const rows = await this.db.query(
      `SELECT 1 FROM prepick_tool_calls WHERE thread_id = $1 AND run_id <> $2 AND id = 'intake-' || run_id
         AND status IN ('answered', 'skipped') LIMIT 1`,
      [threadId, runId],
    );
    return rows.length > 0;
  }

  /**
   * Claims a run for `owner`: a ready run, or a running one whose lease expired (its process
   * died). Exactly one claimant wins; the others get undefined.
   */
  async claimRun(runId: string, owner: string, leaseMs: number): Promise<RunRow | undefined> {
    return (await this.claimRunWithJournal(runId, owner, leaseMs))?.run;
  }

  /**
   * {@link Store.claimRun}, returning the run's journal from the same statement: a resume starts
   * replaying after one round trip instead of three (claim, clear the wake flag, read the journal).
   */
  async claimRunWithJournal(
    runId: string,
    owner: string,
    leaseMs: number,
  ): Promise<{ run: RunRow; checkpoints: CheckpointRow[] } | undefined> {
    const rows = await this.db.query(
      `WITH claimed AS (
         UPDATE prepick_runs SET status = 'running', lease_owner = $2,
           lease_until = now() + ($3 * interval '1 millisecond'), wake_pending = false
         WHERE id = $1 AND (status = 'ready' OR (status = 'running' AND lease_until < now()))
         RETURNING *)
       SELECT claimed.*, (
         SELECT coalesce(jsonb_agg(jsonb_build_object('position', c.position, 'name', c.name,
           'result', c.result) ORDER BY c.position), '[]'::jsonb)
         FROM prepick_checkpoints c WHERE c.run_id = claimed.id) AS journal
       FROM claimed`,
      [runId, owner, leaseMs],
    );
    const row = rows[0];
    if (!row) return undefined;
    return { run: toRun(row), checkpoints: toJournal(row.journal) };
  }

  /**
   * Hands every running run back as ready. Only for a process that holds the store alone (an
   * embedded PGlite folder is locked to one process): whatever was running belonged to a process
   * that died, so its runs resume now instead of after their leases expire.
   */
  async releaseOrphanedRuns(): Promise<number> {
    const rows = await this.db.query(
      `UPDATE prepick_runs SET status = 'ready', lease_owner = NULL, lease_until = NULL
       WHERE status = 'running' RETURNING id`,
    );
    return rows.length;
  }

  /** Ids of runs a worker could claim now, oldest first. */
  async claimableRuns(limit: number): Promise<string[]> {
    const rows = await this.db.query<{ id: string }>(
      `SELECT id FROM prepick_runs
       WHERE status = 'ready' OR (status = 'running' AND lease_until < now())
       ORDER BY created_at LIMIT $1`,
      [limit],
    );
    return rows.map((row) => String(row.id));
  }

  /** Extends the lease of a run `owner` holds; false when it lost the run. */
  async renewLease(runId: string, owner: string, leaseMs: number): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE prepick_runs SET lease_until = now() + ($3 * interval '1 millisecond')
       WHERE id = $1 AND status = 'running' AND lease_owner = $2 RETURNING id`,
      [runId, owner, leaseMs],
    );
    return rows.length > 0;
  }

  /** Hands a run this process was running back as ready, for any process to resume. */
  async releaseRun(runId: string, owner: string): Promise<void> {
    await this.db.query(
      `UPDATE prepick_runs SET status = 'ready', lease_owner = NULL, lease_until = NULL
       WHERE id = $1 AND status = 'running' AND lease_owner = $2`,
      [runId, owner],
    );
  }

  /** Clears the wake flag before a replay reads the journal; false when `owner` lost the run. */
  async clearWake(runId: string, owner: string): Promise<RunRow | undefined> {
    const rows = await this.db.query(
      `UPDATE prepick_runs SET wake_pending = false
       WHERE id = $1 AND status = 'running' AND lease_owner = $2 RETURNING *`,
      [runId, owner],
    );
    return rows[0] ? toRun(rows[0]) : undefined;
  }

  /**
   * Parks a running run and streams `run-parked`, unless a settlement arrived meanwhile
   * (`wake_pending`), in which case nothing changes and the caller replays at once.
   */
  async parkRun(runId: string, owner: string, waitingFor: string[]): Promise<boolean> {
    return this.withFrames(runId, async (tx) => {
      const rows = await tx.query(
        `UPDATE prepick_runs SET status = 'parked', lease_owner = NULL, lease_until = NULL
         WHERE id = $1 AND status = 'running' AND lease_owner = $2 AND NOT wake_pending
           AND NOT cancel_requested
         RETURNING id`,
        [runId, owner],
      );
      if (rows.length === 0) return false;
      await this.appendFrame(tx, runId, { kind: "run-parked", waitingFor });
      return true;
    });
  }

  /** Runs `work` in a transaction and, once it committed, wakes this process's followers of the run. */
  private async withFrames<T>(runId: string, work: (tx: Queryable) => Promise<T>): Promise<T> {
    const result = await this.db.transaction(work);
    this.framesCommitted(runId);
    return result;
  }

  /** Ends a run `owner` holds and streams `run-finish`. */
  async finishRun(
    runId: string,
    owner: string,
    end: { status: "completed" | "failed" | "cancelled"; error?: string; modelMessages?: ModelMessage[] },
  ): Promise<boolean> {
    const finish: Frame = {
      kind: "run-finish",
      status: end.status,
      ...(end.error !== undefined ? { error: end.error } : {}),
    };
    if (end.status !== "cancelled") {
      // The run's row and its last frame in one statement: no BEGIN and COMMIT round trips.
      const rows = await this.db.query<{ seq: number | null }>(
        `WITH finished AS (
           UPDATE prepick_runs SET status = $3, error = $4, model_messages = $5::jsonb,
             lease_owner = NULL, lease_until = NULL, finished_at = now()
           WHERE id = $1 AND status = 'running' AND lease_owner = $2 RETURNING id),
         base AS (SELECT coalesce(max(seq), 0) AS seq FROM prepick_frames WHERE run_id = $1),
         added AS (
           INSERT INTO prepick_frames (run_id, seq, frame)
           SELECT $1, base.seq + 1, $6::jsonb FROM base, finished RETURNING seq)
         SELECT seq, pg_notify($7, $1) AS notified FROM added`,
        [
          runId,
          owner,
          end.status,
          end.error ?? null,
          json(end.modelMessages ?? null),
          json(finish),
          FRAMES_CHANNEL,
        ],
      );
      const row = rows[0];
      if (!row) return false;
      this.framesCommitted(runId, numbered([finish], row.seq));
      return true;
    }
    return this.withFrames(runId, async (tx) => {
      const rows = await tx.query(
        `UPDATE prepick_runs SET status = $3, error = $4, model_messages = $5::jsonb,
           lease_owner = NULL, lease_until = NULL, finished_at = now()
         WHERE id = $1 AND status = 'running' AND lease_owner = $2 RETURNING id`,
        [runId, owner, end.status, end.error ?? null, json(end.modelMessages ?? null)],
      );
      if (rows.length === 0) return false;
      await this.cancelPendingCalls(tx, runId);
      await this.appendFrame(tx, runId, finish);
      return true;
    });
  }

  /**
   * Cancels a run that is not running (ready or parked): its pending rows become `cancelled`,
   * each streams `tool-denied`, and the run streams `run-finish`. A running run is flagged
   * instead and its worker ends it at its next checkpoint.
   */
  async cancelRun(runId: string): Promise<RunStatus | undefined> {
    const status = await this.withFrames(runId, async (tx) => {
      const rows = await tx.query(
        `UPDATE prepick_runs SET status = 'cancelled', finished_at = now(), lease_owner = NULL, lease_until = NULL
         WHERE id = $1 AND status IN ('ready', 'parked') RETURNING id`,
        [runId],
      );
      if (rows.length > 0) {
        await this.cancelPendingCalls(tx, runId);
        await this.appendFrame(tx, runId, { kind: "run-finish", status: "cancelled" });
        return "cancelled" as const;
      }
      const flagged = await tx.query(
        `UPDATE prepick_runs SET cancel_requested = true WHERE id = $1 AND status = 'running' RETURNING id`,
        [runId],
      );
      return flagged.length > 0 ? ("running" as const) : undefined;
    });
    return status;
  }

  private async cancelPendingCalls(tx: Queryable, runId: string): Promise<void> {
    const cancelled = await tx.query<{ id: string }>(
      `UPDATE prepick_tool_calls SET status = 'cancelled', settled_at = now()
       WHERE run_id = $1 AND status = 'pending_approval' RETURNING id`,
      [runId],
    );
    for (const row of cancelled) {
      const denied = {
        kind: "tool-denied",
        id: String(row.id),
        reason: "cancelled",
        cancelled: true,
      } as const;
      await this.appendFrame(tx, runId, denied);
    }
  }

  /** The run's journal, in order. */
  async checkpoints(runId: string): Promise<CheckpointRow[]> {
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
   * Records checkpoints, appends frames and inserts usage rows in one statement: atomic without
   * a transaction, one round trip, and it fails whole if a position is taken (another process
   * got there first). Followers are woken once the frames committed: at once outside a
   * transaction, by the caller inside one. Returns the last frame's sequence number, if any.
   */
  async recordCheckpoints(
    q: Queryable,
    runId: string,
    entries: readonly CheckpointRow[],
    { frames = [], usage = [] }: CheckpointRows = {},
  ): Promise<number | undefined> {
    // The NOTIFY rides in the same statement, so a batch costs one round trip and commits with it.
    const rows = await q.query<{ seq: number | null }>(
      `WITH recorded AS (
         INSERT INTO prepick_checkpoints (run_id, position, name, result)
         SELECT $1, entry.position, entry.name, entry.result
         FROM jsonb_to_recordset($2::jsonb) AS entry(position integer, name text, result jsonb)
         RETURNING position),
       base AS (SELECT coalesce(max(seq), 0) AS seq FROM prepick_frames WHERE run_id = $1),
       added AS (
         INSERT INTO prepick_frames (run_id, seq, frame)
         SELECT $1, base.seq + item.ordinality, item.frame
         FROM base, jsonb_array_elements($3::jsonb) WITH ORDINALITY AS item(frame, ordinality)
         RETURNING seq),
       used AS (
         INSERT INTO prepick_usage (run_id, step, model, input_tokens, output_tokens, total_tokens)
         SELECT $1, used.step, used.model, used.input, used.output, used.total
         FROM jsonb_to_recordset($5::jsonb)
           AS used(step integer, model text, input integer, output integer, total integer)
         RETURNING id)
       SELECT (SELECT count(*) FROM recorded) AS recorded, (SELECT count(*) FROM used) AS used,
         (SELECT max(seq) FROM added) AS seq,
         CASE WHEN EXISTS (SELECT 1 FROM added) THEN pg_notify($4, $1) END AS notified`,
      [runId, json(entries), json(frames), FRAMES_CHANNEL, json(usage)],
    );
    // Outside a transaction the frames are committed already; a transaction's caller says when.
    if (q === this.db && frames.length > 0) this.framesCommitted(runId, numbered(frames, rows[0]?.seq));
    const last = rows[0]?.seq;
    return last === null || last === undefined ? undefined : Number(last);
  }

  /** Appends a frame with the run's next sequence number and wakes its followers. */
  async appendFrame(q: Queryable, runId: string, frame: Frame): Promise<number> {
    return (await this.appendFrames(q, runId, [frame])) ?? 0;
  }

  /**
   * Appends frames with the run's next sequence numbers, dense and in order, and wakes its
   * followers once: one statement, however many frames (the checkpoint statement, recording
   * none). Returns the last sequence number.
   */
  async appendFrames(q: Queryable, runId: string, frames: readonly Frame[]): Promise<number | undefined> {
    if (frames.length === 0) return undefined;
    return this.recordCheckpoints(q, runId, [], { frames });
  }

  /** The run's frames after `after`, in order, at most `limit`. */
  async framesAfter(runId: string, after: number, limit = 500): Promise<SequencedFrame[]> {
    const rows = await this.db.query(
      "SELECT seq, frame FROM prepick_frames WHERE run_id = $1 AND seq > $2 ORDER BY seq LIMIT $3",
      [runId, after, limit],
    );
    return rows.map((row) => ({ seq: Number(row.seq), frame: row.frame as Frame }));
  }

  /**
   * The frames a model call left without finishing: from the last `step-start` of `step` on, when
   * no checkpoint closed it (its process died mid-call). Empty when the call never started.
   */
  async unfinishedStepFrames(runId: string, step: number): Promise<Frame[]> {
    const rows = await this.db.query(
      `SELECT frame FROM prepick_frames WHERE run_id = $1 AND seq >= (
         SELECT max(seq) FROM prepick_frames
         WHERE run_id = $1 AND frame->>'kind' = 'step-start' AND (frame->>'step')::int = $2)
       ORDER BY seq`,
      [runId, step],
    );
    return rows.map((row) => row.frame as Frame);
  }

  /** A tool-call row by id, with its owner. */
  async toolCall(id: string, q: Queryable = this.db): Promise<OwnedToolCall | undefined> {
    const rows = await q.query("SELECT * FROM prepick_tool_calls WHERE id = $1", [id]);
    return rows[0] ? toToolCall(rows[0]) : undefined;
  }

  /** Whether a tool-call id is taken. */
  async toolCallExists(id: string): Promise<boolean> {
    const rows = await this.db.query("SELECT 1 FROM prepick_tool_calls WHERE id = $1", [id]);
    return rows.length > 0;
  }

  /** The actor's pending rows, oldest first: the approvals inbox. */
  async pendingFor(actorId: string): Promise<ToolCallRow[]> {
    const rows = await this.db.query(
      `SELECT * FROM prepick_tool_calls WHERE actor_id = $1 AND status = 'pending_approval'
       ORDER BY created_at, id`,
      [actorId],
    );
    return rows.map((row) => publicToolCall(toToolCall(row)));
  }

  /** Inserts a tool-call row. */
  async insertToolCall(tx: Queryable, call: NewToolCall): Promise<void> {
    await tx.query(
      `INSERT INTO prepick_tool_calls (id, run_id, thread_id, actor_id, name, tool_type, status, input)
       VALUES ($1, $2, $3, $4, $5, 'action', $6, $7::jsonb)`,
      [call.id, call.runId, call.threadId, call.actorId, call.name, call.status, json(call.input)],
    );
  }

  /** Moves a row from `from` to `to` with its output; undefined when it was not in `from`. */
  async settleToolCall(
    tx: Queryable,
    id: string,
    from: ToolCallStatus,
    to: ToolCallStatus,
    output: unknown,
  ): Promise<OwnedToolCall | undefined> {
    const rows = await tx.query(
      `UPDATE prepick_tool_calls SET status = $3, output = $4::jsonb, settled_at = now()
       WHERE id = $1 AND status = $2 RETURNING *`,
      [id, from, to, json(output)],
    );
    return rows[0] ? toToolCall(rows[0]) : undefined;
  }

  /**
   * Settles a pending row a person acted on and makes its run resumable: a parked run becomes
   * ready; a run still running is flagged so it does not park. With `claimFor`, a parked or
   * ready run is claimed for that owner in the same statement instead, and comes back with its
   * journal, so the process that took the answer resumes it without another round trip.
   */
  async settleByPerson(
    id: string,
    to: ToolCallStatus,
    output: unknown,
    claimFor?: { owner: string; leaseMs: number },
  ): Promise<
    | { settled: true; row: OwnedToolCall; claimed?: { run: RunRow; checkpoints: CheckpointRow[] } }
    | { settled: false; row: OwnedToolCall | undefined }
  > {
    // One statement settles the row, wakes (or claims) its run and notifies: atomic without a
    // transaction. A claimed run needs no NOTIFY: nobody else is to pick it up.
    const rows = await this.db.query(
      `WITH settled AS (
         UPDATE prepick_tool_calls SET status = $2, output = $3::jsonb, settled_at = now()
         WHERE id = $1 AND status = 'pending_approval' RETURNING *),
       woken AS (
         UPDATE prepick_runs SET
           wake_pending = NOT ($5::boolean AND status IN ('parked', 'ready')),
           lease_owner = CASE WHEN $5::boolean AND status IN ('parked', 'ready') THEN $6 ELSE lease_owner END,
           lease_until = CASE WHEN $5::boolean AND status IN ('parked', 'ready')
             THEN now() + ($7 * interval '1 millisecond') ELSE lease_until END,
           status = CASE WHEN $5::boolean AND status IN ('parked', 'ready') THEN 'running'
             WHEN status = 'parked' THEN 'ready' ELSE status END
         WHERE id IN (SELECT run_id FROM settled) RETURNING *)
       SELECT to_jsonb(settled) AS call, to_jsonb(woken) AS run,
         CASE WHEN woken.wake_pending THEN pg_notify($4, settled.run_id) END AS notified,
         CASE WHEN NOT woken.wake_pending THEN (
           SELECT coalesce(jsonb_agg(jsonb_build_object('position', c.position, 'name', c.name,
             'result', c.result) ORDER BY c.position), '[]'::jsonb)
           FROM prepick_checkpoints c WHERE c.run_id = woken.id) END AS journal
       FROM settled LEFT JOIN woken ON woken.id = settled.run_id`,
      [
        id,
        to,
        json(output),
        RUNS_CHANNEL,
        claimFor !== undefined,
        claimFor?.owner ?? null,
        claimFor?.leaseMs ?? 0,
      ],
    );
    const row = rows[0];
    if (!row) return { settled: false, row: await this.toolCall(id) };
    const call = toToolCall(row.call as Row);
    if (row.journal === null || row.journal === undefined) return { settled: true, row: call };
    return {
      settled: true,
      row: call,
      claimed: { run: toRun(row.run as Row), checkpoints: toJournal(row.journal) },
    };
  }

  /**
   * Records that a side-effecting handler is about to run. True the first time only: a replay
   * that finds the claim without a result must not run the handler again.
   */
  async claimExecution(id: string): Promise<boolean> {
    const rows = await this.db.query(
      `UPDATE prepick_tool_calls SET execution_claimed_at = now()
       WHERE id = $1 AND execution_claimed_at IS NULL RETURNING id`,
      [id],
    );
    return rows.length > 0;
  }

  /** The number of usage rows a run wrote: one per model call. */
  async usageCount(runId: string): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM prepick_usage WHERE run_id = $1",
      [runId],
    );
    return Number(rows[0]?.n ?? 0);
  }
}

/** Opens the store on a database and migrates it. */
export async function createStore(db: Database): Promise<Store> {
  const store = new Store(db);
  await store.migrate();
  return store;
}
