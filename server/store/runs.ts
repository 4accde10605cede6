import type { ModelMessage } from "ai";
import type { Frame, RunErrorCode } from "prepick/core";
import type { Database, Queryable } from "../database/database";
import { RUNS_CHANNEL } from "./channels";
import { journalSql } from "./checkpoints";
import {
  APPEND_FRAMES_SQL,
  appendFramesSql,
  type FramesWritten,
  firstSeqOf,
  lastSeqSql,
  notifyFollowers,
} from "./frames";
import { json, jsonArrayOnce, storable } from "./json";
import { type Row, toJournal, toRun } from "./read-rows";
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
  | { kind: "started"; run: RunRow; runStart: Frame; claimed?: ClaimedRun }
  | { kind: "busy"; runId: string }
  | { kind: "not-found" }
  | { kind: "other-agent"; agent: string }
  | { kind: "not-hosted"; agent: string };

/** What a new run is made of. */
export interface NewRun {
  threadId: string;
  actorId: string;
  /** The agent the request names; when undefined, the thread's, else `defaultAgent`. */
  agent: string | undefined;
  /** The agent of a new thread whose request names none. */
  defaultAgent: string;
  /** The agents this server hosts: a run of any other is refused. */
  hostedAgents: readonly string[];
  runId: string;
  messageId: string;
  userMessage: UserMessage;
  /** The caller's opt-in deadline for the run (ISO 8601); none when left out. */
  expiresAt?: string;
  /** The agents' own bounds, in ms from the start, by name: the sooner of the chosen agent's and `expiresAt` applies. */
  agentDeadlines?: Readonly<Record<string, number>>;
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

/** The checkpoint every run records first, in the statement that creates it. */
export const RUN_START = "persist:run:start";

// Two starts raced on one thread and the unique index on its active run let one through: the
// other is tried again, and then sees the thread and the run as they are.
const START_ATTEMPTS = 3;

/**
 * The one statement that starts a run: it resolves the agent (the request's, the thread's, or
 * the default), refuses a thread another actor owns, another agent's thread, an agent not hosted
 * here and a thread with an active run, and otherwise creates the thread when new, the run (under
 * the lease when given, else `ready` with a notification), its `persist:run:start` checkpoint and
 * its `run-start` frame. No row lock: the unique index on a thread's active run decides a race.
 */
const START_SQL = `WITH thread AS (
    SELECT actor_id, agent FROM prepick_threads WHERE id = $2),
  chosen AS (SELECT coalesce($4::text, (SELECT agent FROM thread), $5::text) AS agent),
  active AS (SELECT id FROM prepick_runs WHERE thread_id = $2 AND ${ACTIVE} LIMIT 1),
  verdict AS (
    SELECT chosen.agent, CASE
      WHEN EXISTS (SELECT 1 FROM thread WHERE actor_id <> $3) THEN 'not-found'
      WHEN chosen.agent NOT IN (SELECT jsonb_array_elements_text($6::jsonb)) THEN 'not-hosted'
      WHEN EXISTS (SELECT 1 FROM thread WHERE agent <> chosen.agent) THEN 'other-agent'
      WHEN EXISTS (SELECT 1 FROM active) THEN 'busy'
      ELSE 'started' END AS kind
    FROM chosen),
  new_thread AS (
    INSERT INTO prepick_threads (id, actor_id, agent)
    SELECT $2, $3, verdict.agent FROM verdict
    WHERE verdict.kind = 'started' AND NOT EXISTS (SELECT 1 FROM thread)
    RETURNING id),
  started AS (
    INSERT INTO prepick_runs (id, thread_id, actor_id, agent, turn, message_id, user_message,
      status, lease_owner, lease_until, expires_at)
    SELECT $1, $2, $3, verdict.agent, (SELECT count(*) FROM prepick_runs WHERE thread_id = $2), $7,
      $8::jsonb, CASE WHEN $9::text IS NULL THEN 'ready' ELSE 'running' END, $9::text,
      CASE WHEN $9::text IS NULL THEN NULL ELSE ${LEASE_UNTIL("$10")} END,
      -- The opt-in deadline: the sooner of the caller's and the agent's (LEAST skips nulls); none by default.
      LEAST($11::timestamptz, ${LEASE_UNTIL("($12::jsonb ->> verdict.agent)::bigint")})
    FROM verdict WHERE verdict.kind = 'started'
    RETURNING id, thread_id, agent, turn, message_id, user_message, status, expires_at, created_at),
  recorded AS (
    INSERT INTO prepick_checkpoints (run_id, position, name, result)
    SELECT id, 0, '${RUN_START}', jsonb_build_object('messageId', message_id) FROM started),
  streamed AS (
    INSERT INTO prepick_frames (run_id, first_seq, last_seq, frames)
    SELECT id, 1, 1, jsonb_build_array(jsonb_build_object('kind', 'run-start', 'runId', id,
      'threadId', thread_id, 'messageId', message_id, 'agent', agent))
    FROM started)
  SELECT verdict.kind, verdict.agent AS chosen_agent, (SELECT agent FROM thread) AS thread_agent,
    (SELECT id FROM active) AS active_run, started.turn, started.user_message, started.expires_at,
    started.created_at,
    CASE WHEN started.status = 'ready' THEN pg_notify('${RUNS_CHANNEL}', started.id) END AS notified
  FROM verdict LEFT JOIN started ON true`;

/** The first frame of every run, as the statement that starts it writes it. */
export function runStartFrame(run: RunRow): Frame {
  return {
    kind: "run-start",
    runId: run.id,
    threadId: run.threadId,
    messageId: run.messageId,
    agent: run.agent,
  };
}

/** The number of a claimed run's last frame, read in the claiming statement. */
export const LAST_SEQ = (run: string) => `coalesce(${lastSeqSql(run)}, 0) AS last_seq`;

/** Claims up to $3 ready runs for $1 under a lease of $2 ms, each with its journal (`RunStore.claimReady`). */
const CLAIM_READY_SQL = `WITH next AS (
    SELECT id FROM prepick_runs WHERE status = 'ready'
    ORDER BY ready_at, id LIMIT $3 FOR UPDATE SKIP LOCKED),
  claimed AS (
    UPDATE prepick_runs r SET status = 'running', lease_owner = $1, lease_until = ${LEASE_UNTIL("$2")},
      wake_pending = false, waiting_on = NULL
    FROM next WHERE r.id = next.id RETURNING r.*)
  SELECT claimed.*, ${journalSql("claimed.id")} AS journal, ${LAST_SEQ("claimed.id")}
  FROM claimed ORDER BY claimed.ready_at, claimed.id`;

/** The run $1 with its journal while $2 holds it (`RunStore.held`). */
const HELD_SQL = `SELECT r.*, ${journalSql("r.id")} AS journal, ${LAST_SEQ("r.id")} FROM prepick_runs r
  WHERE r.id = $1 AND r.status = 'running' AND r.lease_owner = $2`;

/** Extends $1's leases by $2 ms on the runs $3 names (`RunStore.renewLeases`). */
const RENEW_SQL = `UPDATE prepick_runs SET lease_until = ${LEASE_UNTIL("$2")}
  WHERE id IN (SELECT jsonb_array_elements_text($3::jsonb)) AND status = 'running' AND lease_owner = $1`;

/** Hands every run whose lease lapsed back as ready (`RunStore.expireLeases`). */
const EXPIRE_SQL = `WITH expired AS (
    UPDATE prepick_runs SET status = 'ready', lease_owner = NULL, lease_until = NULL, ready_at = now()
    WHERE status = 'running' AND lease_until < now() RETURNING id)
  SELECT id, pg_notify('${RUNS_CHANNEL}', id) AS notified FROM expired`;

/** Hands the run $1 that $2 runs back as ready (`RunStore.release`). */
const RELEASE_SQL = `WITH released AS (
    UPDATE prepick_runs SET status = 'ready', lease_owner = NULL, lease_until = NULL, ready_at = now()
    WHERE id = $1 AND status = 'running' AND lease_owner = $2 RETURNING id)
  SELECT pg_notify('${RUNS_CHANNEL}', id) AS notified FROM released`;

/** Hands back as ready the runs leased to $1 but not in $2 (`RunStore.releaseStray`). */
const RELEASE_STRAY_SQL = `WITH released AS (
    UPDATE prepick_runs SET status = 'ready', lease_owner = NULL, lease_until = NULL, ready_at = now()
    WHERE status = 'running' AND lease_owner = $1
      AND id NOT IN (SELECT jsonb_array_elements_text($2::jsonb)) RETURNING id)
  SELECT pg_notify('${RUNS_CHANNEL}', id) AS notified FROM released`;

/** Parks the run $1 that $2 holds on the call $3, streaming the frames $4 (`RunStore.park`). */
const PARK_SQL = `WITH current AS (
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
  SELECT status, cancel_requested, ${notifyFollowers("$1")} FROM changed`;

/** Ends the run $1 that $5 holds and streams the frames $6 (`RunStore.finish`). */
const FINISH_SQL = `WITH finished AS (
    UPDATE prepick_runs SET status = $2, error = $3, model_messages = $4::jsonb,
      lease_owner = NULL, lease_until = NULL, finished_at = now()
    WHERE id = $1 AND status = 'running' AND lease_owner = $5 RETURNING id),
  ${appendFramesSql("$1", "$6", "finished")}
  SELECT ${notifyFollowers("$1")} FROM finished`;

/**
 * The runs and their leases: a run is `ready` until a process claims it (`running` under a lease
 * the process renews), `parked` while it waits on a person, and then ends. A claim is one
 * conditional statement, so exactly one process runs a run at a time.
 */
export class RunStore {
  /**
   * @param db The store's database.
   * @param written Told of the frames this store writes.
   */
  constructor(
    private readonly db: Database,
    private readonly written: FramesWritten,
  ) {}

  /**
   * Starts a run in one statement (see `START_SQL`): `running` under `lease` when the caller has
   * room to run it now, else `ready` with a notification for any process. The run's journal
   * begins with `persist:run:start` and its stream with `run-start`, written in that statement.
   */
  async start(input: NewRun, lease?: Lease): Promise<StartRunResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.startOnce(input, lease);
      } catch (error) {
        if ((error as { code?: string }).code !== "23505" || attempt >= START_ATTEMPTS) throw error;
      }
    }
  }

  private async startOnce(input: NewRun, lease: Lease | undefined): Promise<StartRunResult> {
    const rows = await this.db.query(START_SQL, [
      input.runId,
      input.threadId,
      input.actorId,
      input.agent ?? null,
      input.defaultAgent,
      json(input.hostedAgents),
      input.messageId,
      json(input.userMessage),
      lease?.owner ?? null,
      lease?.leaseMs ?? 0,
      input.expiresAt ?? null,
      input.agentDeadlines ? json(input.agentDeadlines) : null,
    ]);
    const row = rows[0] as Row;
    const agent = String(row.chosen_agent);
    switch (row.kind) {
      case "not-found":
        return { kind: "not-found" };
      case "not-hosted":
        return { kind: "not-hosted", agent };
      case "other-agent":
        return { kind: "other-agent", agent: String(row.thread_agent) };
      case "busy":
        return { kind: "busy", runId: String(row.active_run) };
      default: {
        // Only what the database decided comes back (the driver reads every column it is sent):
        // the rest of a run just started is what the statement was given.
        const run = toRun({
          ...row,
          id: input.runId,
          thread_id: input.threadId,
          actor_id: input.actorId,
          agent,
          message_id: input.messageId,
          status: lease ? "running" : "ready",
        });
        const runStart = runStartFrame(run);
        this.written(run.id, 1, [runStart]);
        const checkpoints = [{ position: 0, name: RUN_START, result: { messageId: run.messageId } }];
        return {
          kind: "started",
          run,
          runStart,
          ...(lease ? { claimed: { run, checkpoints, lastSeq: 1 } } : {}),
        };
      }
    }
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
   * model messages, which can be large), and whether older turns remain. The cursor is a bound of
   * the index scan, not a filter: the pool plans statements generically, and `$2 IS NULL OR …`
   * would read every newer turn of the thread on each page back.
   */
  async turnsOfThread(
    threadId: string,
    before: number | undefined,
    limit: number,
  ): Promise<{ turns: ThreadTurn[]; older: boolean }> {
    const rows = await this.db.query(
      `SELECT id, turn, message_id, user_message, status FROM prepick_runs
       WHERE thread_id = $1 AND turn < coalesce($2::int, 2147483647)
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
    const rows = await this.db.query(CLAIM_READY_SQL, [lease.owner, lease.leaseMs, limit]);
    return rows.map((row) => ({
      run: toRun(row),
      checkpoints: toJournal(row.journal),
      lastSeq: Number(row.last_seq),
    }));
  }

  /**
   * The run with its journal, read again, while `owner` still holds it (`running` under its
   * lease); undefined once it does not (it ended, or another process took it over).
   */
  async held(runId: string, owner: string): Promise<ClaimedRun | undefined> {
    const rows = await this.db.query(HELD_SQL, [runId, owner]);
    const row = rows[0];
    return row
      ? { run: toRun(row), checkpoints: toJournal(row.journal), lastSeq: Number(row.last_seq) }
      : undefined;
  }

  /** Extends the leases of the runs `owner` is running; the ones it lost are left alone. */
  async renewLeases(lease: Lease, runIds: readonly string[]): Promise<void> {
    if (runIds.length === 0) return;
    await this.db.query(RENEW_SQL, [lease.owner, lease.leaseMs, json(runIds)]);
  }

  /**
   * Hands every run whose lease expired (its process died, or stalled past it) back as ready,
   * with a notification each, so whichever process has room claims it. Returns how many.
   */
  async expireLeases(): Promise<number> {
    const rows = await this.db.query(EXPIRE_SQL);
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
    await this.db.query(RELEASE_SQL, [runId, owner]);
  }

  /**
   * Hands back as ready every run leased to `owner` that it is not running (`running`): what a
   * statement claimed for it while its connection broke, the claim committed but its answer lost.
   * Returns how many, each with a notification.
   */
  async releaseStray(owner: string, running: readonly string[]): Promise<number> {
    const rows = await this.db.query(RELEASE_STRAY_SQL, [owner, json(running)]);
    return rows.length;
  }

  /**
   * Parks a running run on the call `waitingOn` and streams `run-parked`, in one statement. A
   * settlement that arrived while it ran (`wake_pending`) keeps it running instead, and so does
   * a cancel request (the caller ends it).
   */
  async park(runId: string, owner: string, waitingOn: string): Promise<ParkResult> {
    const parked: Frame = { kind: "run-parked", waitingFor: [waitingOn] };
    const rows = await this.db.query<{
      status: RunStatus;
      cancel_requested: boolean;
      first_seq: number | null;
    }>(PARK_SQL, [runId, owner, waitingOn, jsonArrayOnce([parked])]);
    const row = rows[0];
    if (!row) return "lost";
    const first = firstSeqOf(row);
    if (first !== undefined) this.written(runId, first, [parked]);
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
      const rows = await this.db.query(FINISH_SQL, [...ended, owner, jsonArrayOnce([finish])]);
      const first = firstSeqOf(rows[0]);
      if (first !== undefined) this.written(runId, first, [finish]);
      return rows.length > 0;
    }
    const streamed = await this.db.transaction(async (tx) => {
      const rows = await tx.query(
        `UPDATE prepick_runs SET status = $2, error = $3, model_messages = $4::jsonb,
           lease_owner = NULL, lease_until = NULL, finished_at = now()
         WHERE id = $1 AND status = 'running' AND lease_owner = $5 RETURNING id`,
        [...ended, owner],
      );
      if (rows.length === 0) return undefined;
      return this.endPendingCalls(tx, runId, finish);
    });
    if (streamed) this.written(runId, streamed.first, streamed.frames);
    return streamed !== undefined;
  }

  /**
   * Cancels a run that is not running (ready or parked): its pending rows become `cancelled`,
   * each streams `tool-denied`, and the run streams `run-finish`. A running run is flagged
   * instead and its worker ends it at its next checkpoint.
   */
  async cancel(runId: string): Promise<RunStatus | undefined> {
    const outcome = await this.db.transaction(async (tx) => {
      const rows = await tx.query(
        `UPDATE prepick_runs SET status = 'cancelled', finished_at = now(), lease_owner = NULL,
           lease_until = NULL, waiting_on = NULL
         WHERE id = $1 AND status IN ('ready', 'parked') RETURNING id`,
        [runId],
      );
      if (rows.length > 0) {
        const streamed = await this.endPendingCalls(tx, runId, { kind: "run-finish", status: "cancelled" });
        return { status: "cancelled" as const, streamed };
      }
      const flagged = await tx.query(
        `UPDATE prepick_runs SET cancel_requested = true WHERE id = $1 AND status = 'running' RETURNING id`,
        [runId],
      );
      return { status: flagged.length > 0 ? ("running" as const) : undefined };
    });
    if ("streamed" in outcome && outcome.streamed) {
      this.written(runId, outcome.streamed.first, outcome.streamed.frames);
    }
    return outcome.status;
  }

  /**
   * Cancels the run's pending calls, and a tool call it was running when cancelled (aborted with
   * the run), each with a `tool-denied` frame, then streams `last`; returns the frames and the
   * first one's number, for the caller to hand on once the transaction commits.
   */
  private async endPendingCalls(
    tx: Queryable,
    runId: string,
    last: Frame,
  ): Promise<{ first: number; frames: Frame[] }> {
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
    const rows = await tx.query(APPEND_FRAMES_SQL, [runId, jsonArrayOnce(frames)]);
    return { first: firstSeqOf(rows[0]) ?? 0, frames };
  }
}
