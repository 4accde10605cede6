import type { ModelMessage } from "ai";
import type { Frame, RunErrorCode } from "prepick/core";
import type { Database, Queryable } from "../database/database";
import { RUNS_CHANNEL } from "./channels";
import { journalSql } from "./checkpoints";
import { appendFramesSql, notifyFollowers } from "./frames";
import { json, storable } from "./json";
import { type Row, toJournal, toRun, toThread } from "./read-rows";
import type { ClaimedRun, Lease, RunRow, RunStatus, UserMessage } from "./rows";

/** A turn of a thread as a reader sees it: the person's message and the run that answered it. */
export interface ThreadTurn {
  /** The run. */
  runId: string;
  /** Its position in the thread, from 1. */
  turn: number;
  /** The assistant message the run writes. */
  messageId: string;
  /** The person's message that started it. */
  userMessage: UserMessage;
  /** Where the run is. */
  status: RunStatus;
}

/** What starting a run may come to. */
export type StartRunResult =
  | { kind: "started"; run: RunRow; claimed?: ClaimedRun }
  | { kind: "busy"; runId: string }
  | { kind: "not-found" }
  | { kind: "other-agent"; agent: string };

/** What a new run is made of. */
export interface NewRun {
  threadId: string;
  createThread: boolean;
  actorId: string;
  agent: string;
  runId: string;
  messageId: string;
  userMessage: UserMessage;
}

/** How parking a run came out. */
export type ParkResult =
  /** Parked: the run waits, as rows only. */
  | "parked"
  /** A settlement arrived while the run was running: it goes on instead, still claimed. */
  | "woken"
  /** Cancelling was asked while it ran: the caller ends it as cancelled. */
  | "cancelled"
  /** This process no longer holds the run. */
  | "lost";

/** How a run ended. */
export interface RunEnd {
  status: "completed" | "failed" | "cancelled";
  /** A failure's sentence, never a provider's or database's text (that goes to the log). */
  error?: string;
  /** A failure's code, streamed with `run-finish`. */
  code?: RunErrorCode;
  /** The id of the log line that explains a failure, streamed with `run-finish`. */
  errorId?: string;
  modelMessages?: ModelMessage[];
}

const ACTIVE = "status IN ('ready', 'running', 'parked')";
const LEASE_UNTIL = (ms: string) => `now() + (${ms} * interval '1 millisecond')`;

/**
 * The runs and their leases: a run is `ready` until a process claims it (`running` under a lease
 * the process renews), `parked` while it waits on a person, and then ends. A claim is one
 * conditional statement, so exactly one process runs a run at a time.
 */
export class RunStore {
  /** @param db The store's database. */
  constructor(private readonly db: Database) {}

  /**
   * Creates the thread if needed and a run on it, in one transaction: `running` under `lease`
   * when the caller has room to run it now, else `ready` with a notification for any process.
   */
  async start(input: NewRun, lease?: Lease): Promise<StartRunResult> {
    try {
      return await this.startOnce(input, lease);
    } catch (error) {
      // Two requests raced to start a turn on one thread: the unique index let one through.
      if ((error as { code?: string }).code !== "23505") throw error;
      const active = await this.db.query<{ id: string }>(
        `SELECT id FROM prepick_runs WHERE thread_id = $1 AND ${ACTIVE}`,
        [input.threadId],
      );
      if (active[0]) return { kind: "busy", runId: String(active[0].id) };
      return this.startOnce(input, lease);
    }
  }

  private startOnce(input: NewRun, lease: Lease | undefined): Promise<StartRunResult> {
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
        `SELECT id FROM prepick_runs WHERE thread_id = $1 AND ${ACTIVE}`,
        [input.threadId],
      );
      if (active[0]) return { kind: "busy", runId: String(active[0].id) } as const;
      const rows = await tx.query(
        `WITH started AS (
           INSERT INTO prepick_runs (id, thread_id, actor_id, agent, turn, message_id, user_message,
             status, lease_owner, lease_until)
           VALUES ($1, $2, $3, $4, (SELECT count(*) FROM prepick_runs WHERE thread_id = $2), $5,
             $6::jsonb, CASE WHEN $7::text IS NULL THEN 'ready' ELSE 'running' END, $7::text,
             CASE WHEN $7::text IS NULL THEN NULL ELSE ${LEASE_UNTIL("$8")} END)
           RETURNING *)
         SELECT started.*, CASE WHEN $7::text IS NULL THEN pg_notify('${RUNS_CHANNEL}', $1) END AS notified
         FROM started`,
        [
          input.runId,
          input.threadId,
          input.actorId,
          input.agent,
          input.messageId,
          json(input.userMessage),
          lease?.owner ?? null,
          lease?.leaseMs ?? 0,
        ],
      );
      const run = toRun(rows[0] as Row);
      return { kind: "started", run, ...(lease ? { claimed: { run, checkpoints: [] } } : {}) } as const;
    });
  }

  /** A run by id. */
  async get(runId: string, q: Queryable = this.db): Promise<RunRow | undefined> {
    const rows = await q.query("SELECT * FROM prepick_runs WHERE id = $1", [runId]);
    return rows[0] ? toRun(rows[0]) : undefined;
  }

  /** A thread's runs in turn order. */
  async ofThread(threadId: string): Promise<RunRow[]> {
    const rows = await this.db.query("SELECT * FROM prepick_runs WHERE thread_id = $1 ORDER BY turn", [
      threadId,
    ]);
    return rows.map(toRun);
  }

  /**
   * One page of a thread's turns for reading it back: the latest `limit` turns before turn
   * `before` (all of them when undefined), oldest first, with only what a reader shows (not the
   * model messages, which can be large), and whether older turns remain.
   */
  async turnsOfThread(
    threadId: string,
    before: number | undefined,
    limit: number,
  ): Promise<{ turns: ThreadTurn[]; older: boolean }> {
    const rows = await this.db.query(
      `SELECT id, turn, message_id, user_message, status FROM prepick_runs
       WHERE thread_id = $1 AND ($2::int IS NULL OR turn < $2::int)
       ORDER BY turn DESC LIMIT $3`,
      [threadId, before ?? null, limit + 1],
    );
    const turns = rows.slice(0, limit).map((row) => ({
      runId: String(row.id),
      turn: Number(row.turn),
      messageId: String(row.message_id),
      userMessage: row.user_message as UserMessage,
      status: row.status as RunStatus,
    }));
    return { turns: turns.reverse(), older: rows.length > limit };
  }

  /**
   * Claims up to `limit` ready runs for `lease.owner`, the longest ready first, each with its
   * journal: one statement. Runs another process is claiming at the same moment are skipped,
   * not waited for, so several processes claim side by side.
   */
  async claimReady(lease: Lease, limit: number): Promise<ClaimedRun[]> {
    const rows = await this.db.query(
      `WITH next AS (
         SELECT id FROM prepick_runs WHERE status = 'ready'
         ORDER BY ready_at, id LIMIT $3 FOR UPDATE SKIP LOCKED),
       claimed AS (
         UPDATE prepick_runs r SET status = 'running', lease_owner = $1, lease_until = ${LEASE_UNTIL("$2")},
           wake_pending = false, waiting_on = NULL
         FROM next WHERE r.id = next.id RETURNING r.*)
       SELECT claimed.*, ${journalSql("claimed.id")} AS journal
       FROM claimed ORDER BY claimed.ready_at, claimed.id`,
      [lease.owner, lease.leaseMs, limit],
    );
    return rows.map((row) => ({ run: toRun(row), checkpoints: toJournal(row.journal) }));
  }

  /**
   * The run with its journal, read again, while `owner` still holds it (`running` under its
   * lease); undefined once it does not (it ended, or another process took it over).
   */
  async held(runId: string, owner: string): Promise<ClaimedRun | undefined> {
    const rows = await this.db.query(
      `SELECT r.*, ${journalSql("r.id")} AS journal FROM prepick_runs r
       WHERE r.id = $1 AND r.status = 'running' AND r.lease_owner = $2`,
      [runId, owner],
    );
    const row = rows[0];
    return row ? { run: toRun(row), checkpoints: toJournal(row.journal) } : undefined;
  }

  /** Extends the leases of the runs `owner` is running; the ones it lost are left alone. */
  async renewLeases(lease: Lease, runIds: readonly string[]): Promise<void> {
    if (runIds.length === 0) return;
    await this.db.query(
      `UPDATE prepick_runs SET lease_until = ${LEASE_UNTIL("$2")}
       WHERE id IN (SELECT jsonb_array_elements_text($3::jsonb)) AND status = 'running' AND lease_owner = $1`,
      [lease.owner, lease.leaseMs, json(runIds)],
    );
  }

  /**
   * Hands every run whose lease expired (its process died, or stalled past it) back as ready,
   * with a notification each, so whichever process has room claims it. Returns how many.
   */
  async expireLeases(): Promise<number> {
    const rows = await this.db.query(
      `WITH expired AS (
         UPDATE prepick_runs SET status = 'ready', lease_owner = NULL, lease_until = NULL, ready_at = now()
         WHERE status = 'running' AND lease_until < now() RETURNING id)
       SELECT id, pg_notify('${RUNS_CHANNEL}', id) AS notified FROM expired`,
    );
    return rows.length;
  }

  /**
   * Hands every running run back as ready. Only for a process that holds the store alone (an
   * embedded PGlite folder is locked to one process): whatever was running belonged to a process
   * that died, so its runs resume now instead of after their leases expire.
   */
  async releaseOrphaned(): Promise<number> {
    const rows = await this.db.query(
      `UPDATE prepick_runs SET status = 'ready', lease_owner = NULL, lease_until = NULL, ready_at = now()
       WHERE status = 'running' RETURNING id`,
    );
    return rows.length;
  }

  /** Hands a run this process was running back as ready, for any process to resume. */
  async release(runId: string, owner: string): Promise<void> {
    await this.db.query(
      `WITH released AS (
         UPDATE prepick_runs SET status = 'ready', lease_owner = NULL, lease_until = NULL, ready_at = now()
         WHERE id = $1 AND status = 'running' AND lease_owner = $2 RETURNING id)
       SELECT pg_notify('${RUNS_CHANNEL}', id) AS notified FROM released`,
      [runId, owner],
    );
  }

  /**
   * Hands back as ready every run leased to `owner` that it is not running (`running`): what a
   * statement claimed for it while its connection broke, the claim committed but its answer lost.
   * Returns how many, each with a notification.
   */
  async releaseStray(owner: string, running: readonly string[]): Promise<number> {
    const rows = await this.db.query(
      `WITH released AS (
         UPDATE prepick_runs SET status = 'ready', lease_owner = NULL, lease_until = NULL, ready_at = now()
         WHERE status = 'running' AND lease_owner = $1
           AND id NOT IN (SELECT jsonb_array_elements_text($2::jsonb)) RETURNING id)
       SELECT pg_notify('${RUNS_CHANNEL}', id) AS notified FROM released`,
      [owner, json(running)],
    );
    return rows.length;
  }

  /**
   * Parks a running run on the call `waitingOn` and streams `run-parked`, in one statement. A
   * settlement that arrived while it ran (`wake_pending`) keeps it running instead, and so does
   * a cancel request (the caller ends it).
   */
  async park(runId: string, owner: string, waitingOn: string): Promise<ParkResult> {
    const parked: Frame = { kind: "run-parked", waitingFor: [waitingOn] };
    const rows = await this.db.query<{ status: RunStatus; cancel_requested: boolean }>(
      `WITH current AS (
         SELECT id, wake_pending, cancel_requested FROM prepick_runs
         WHERE id = $1 AND status = 'running' AND lease_owner = $2 FOR UPDATE),
       changed AS (
         UPDATE prepick_runs r SET
           status = CASE WHEN c.wake_pending OR c.cancel_requested THEN 'running' ELSE 'parked' END,
           waiting_on = CASE WHEN c.wake_pending OR c.cancel_requested THEN NULL ELSE $3 END,
           lease_owner = CASE WHEN c.wake_pending OR c.cancel_requested THEN r.lease_owner END,
           lease_until = CASE WHEN c.wake_pending OR c.cancel_requested THEN r.lease_until END,
           wake_pending = false
         FROM current c WHERE r.id = c.id RETURNING r.status, r.cancel_requested),
       parked AS (SELECT 1 FROM changed WHERE status = 'parked'),
       ${appendFramesSql("$1", "$4", "parked")}
       SELECT status, cancel_requested, ${notifyFollowers("$1")} AS notified FROM changed`,
      [runId, owner, waitingOn, json([parked])],
    );
    const row = rows[0];
    if (!row) return "lost";
    if (row.status === "parked") return "parked";
    return row.cancel_requested ? "cancelled" : "woken";
  }

  /** Ends a run `owner` holds and streams `run-finish`; a cancelled one cancels its pending calls. */
  async finish(runId: string, owner: string, end: RunEnd): Promise<boolean> {
    const finish: Frame = {
      kind: "run-finish",
      status: end.status,
      ...(end.error !== undefined ? { error: end.error } : {}),
      ...(end.code !== undefined ? { code: end.code } : {}),
      ...(end.errorId !== undefined ? { errorId: end.errorId } : {}),
    };
    // A model's or tool's error message may hold text PostgreSQL's text refuses (NUL).
    const ended = [
      runId,
      end.status,
      end.error === undefined ? null : storable(end.error),
      json(end.modelMessages ?? null),
    ] as const;
    if (end.status !== "cancelled") {
      // The run's row and its last frame in one statement: no BEGIN and COMMIT round trips.
      const rows = await this.db.query(
        `WITH finished AS (
           UPDATE prepick_runs SET status = $2, error = $3, model_messages = $4::jsonb,
             lease_owner = NULL, lease_until = NULL, finished_at = now()
           WHERE id = $1 AND status = 'running' AND lease_owner = $5 RETURNING id),
         ${appendFramesSql("$1", "$6", "finished")}
         SELECT ${notifyFollowers("$1")} AS notified FROM finished`,
        [...ended, owner, json([finish])],
      );
      return rows.length > 0;
    }
    return this.db.transaction(async (tx) => {
      const rows = await tx.query(
        `UPDATE prepick_runs SET status = $2, error = $3, model_messages = $4::jsonb,
           lease_owner = NULL, lease_until = NULL, finished_at = now()
         WHERE id = $1 AND status = 'running' AND lease_owner = $5 RETURNING id`,
        [...ended, owner],
      );
      if (rows.length === 0) return false;
      await this.endPendingCalls(tx, runId, finish);
      return true;
    });
  }

  /**
   * Cancels a run that is not running (ready or parked): its pending rows become `cancelled`,
   * each streams `tool-denied`, and the run streams `run-finish`. A running run is flagged
   * instead and its worker ends it at its next checkpoint.
   */
  async cancel(runId: string): Promise<RunStatus | undefined> {
    return this.db.transaction(async (tx) => {
      const rows = await tx.query(
        `UPDATE prepick_runs SET status = 'cancelled', finished_at = now(), lease_owner = NULL,
           lease_until = NULL, waiting_on = NULL
         WHERE id = $1 AND status IN ('ready', 'parked') RETURNING id`,
        [runId],
      );
      if (rows.length > 0) {
        await this.endPendingCalls(tx, runId, { kind: "run-finish", status: "cancelled" });
        return "cancelled" as const;
      }
      const flagged = await tx.query(
        `UPDATE prepick_runs SET cancel_requested = true WHERE id = $1 AND status = 'running' RETURNING id`,
        [runId],
      );
      return flagged.length > 0 ? ("running" as const) : undefined;
    });
  }

  /**
   * Cancels the run's pending calls, and a tool call it was running when cancelled (aborted with
   * the run), each with a `tool-denied` frame, then streams `last`.
   */
  private async endPendingCalls(tx: Queryable, runId: string, last: Frame): Promise<void> {
    const cancelled = await tx.query<{ id: string }>(
      `UPDATE prepick_tool_calls SET status = 'cancelled', settled_at = now()
       WHERE run_id = $1 AND status IN ('pending_approval', 'running') RETURNING id`,
      [runId],
    );
    const frames: Frame[] = cancelled.map((row) => ({
      kind: "tool-denied",
      id: String(row.id),
      reason: "cancelled",
      cancelled: true,
    }));
    frames.push(last);
    await tx.query(`WITH ${appendFramesSql("$1", "$2")} SELECT ${notifyFollowers("$1")} AS notified`, [
      runId,
      json(frames),
    ]);
  }
}
