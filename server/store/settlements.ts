import type { Frame } from "prepick/core";
import type { Database } from "../database/database";
import { RUNS_CHANNEL } from "./channels";
import { journalSql } from "./checkpoints";
import { appendFramesSql, type FramesWritten, firstSeqOf, lastSeqSql, notifyFollowers } from "./frames";
import { json, jsonArrayOnce } from "./json";
import { type Row, toJournal, toRun, toToolCall } from "./read-rows";
import type { ClaimedRun, Lease, OwnedToolCall, ToolCallStatus } from "./rows";

/** A person's settlement of a pending row, and the run's signal checkpoint that records it. */
export interface PersonSettlement {
  /** The pending row. */
  callId: string;
  /** Its run. */
  runId: string;
  /** The row's status once settled. */
  status: ToolCallStatus;
  /** The row's output once settled. */
  output: unknown;
  /** The run's `signal:tool:` checkpoint for it, and the frames that checkpoint streams. */
  signal: { name: string; result: unknown; frames: readonly Frame[] };
  /**
   * An approved editable call: the fields the person changed, and the input the tool runs with
   * when they changed any (the row's `input` becomes it, the proposal moving to `proposed_input`).
   */
  edits?: { edited: string[]; input?: unknown };
}

/**
 * What settling came to. A settled row is not read back: it holds what the caller settled it
 * with, and only a refusal needs to say how the row stands instead.
 */
export type SettleResult =
  | {
      settled: true;
      /** Whether this statement recorded the run's signal (the run was parked on exactly this call). */
      signalled: boolean;
      /** The run, claimed under the caller's lease, when it was. */
      claimed?: ClaimedRun;
    }
  | {
      settled: false;
      /** The row as it stands (settled before, or its run's deadline passed); undefined when it does not exist. */
      row: OwnedToolCall | undefined;
    };

// A run that parked between this statement's snapshot and its lock on the run row makes the
// signal's position or frame number taken: the statement fails whole, and a retry sees the park.
const ATTEMPTS = 3;

/** Settles the call $1 of the run $2 and wakes the run, recording the signal when it waits on exactly that call (`SettlementStore.settle`). */
const SETTLE_SQL = `WITH run AS (
    -- A run past its opt-in deadline takes no answer: it expires instead (DeadlineStore).
    SELECT id, status, waiting_on FROM prepick_runs
    WHERE id = $2 AND (expires_at IS NULL OR expires_at > now()) FOR UPDATE),
  settled AS (
    UPDATE prepick_tool_calls SET status = $3, output = $4::jsonb, settled_at = now(),
      input = coalesce($10::jsonb, input),
      proposed_input = CASE WHEN $10::jsonb IS NULL THEN proposed_input ELSE input END,
      edited = coalesce($11::jsonb, edited)
    WHERE id = $1 AND status = 'pending_approval' AND run_id IN (SELECT id FROM run)
    RETURNING id, run_id),
  decided AS (
    SELECT run.id, run.status = 'parked' AND run.waiting_on = $1 AS signalled,
      -- A run parked before runs recorded what they wait on is woken as before.
      run.status = 'parked' AND (run.waiting_on = $1 OR run.waiting_on IS NULL) AS wakes
    FROM run, settled),
  woken AS (
    UPDATE prepick_runs r SET
      status = CASE WHEN d.wakes AND $8::text IS NOT NULL THEN 'running'
        WHEN d.wakes THEN 'ready' ELSE r.status END,
      lease_owner = CASE WHEN d.wakes THEN $8::text ELSE r.lease_owner END,
      lease_until = CASE WHEN d.wakes AND $8::text IS NOT NULL
        THEN now() + ($9 * interval '1 millisecond') WHEN d.wakes THEN NULL ELSE r.lease_until END,
      ready_at = CASE WHEN d.wakes THEN now() ELSE r.ready_at END,
      waiting_on = CASE WHEN d.wakes THEN NULL ELSE r.waiting_on END,
      -- Still running: it must not park on what was just settled, and replays instead.
      wake_pending = r.status = 'running'
    FROM decided d WHERE r.id = d.id
    RETURNING r.*, d.signalled, d.wakes AND $8::text IS NOT NULL AS claimed),
  signal AS (
    INSERT INTO prepick_checkpoints (run_id, position, name, result)
    SELECT d.id, (SELECT coalesce(max(position) + 1, 0) FROM prepick_checkpoints WHERE run_id = $2),
      $5, $6::jsonb
    FROM decided d WHERE d.signalled
    RETURNING position, name, result),
  signalled AS (SELECT 1 FROM decided WHERE signalled),
  ${appendFramesSql("$2", "$7", "signalled")}
  SELECT to_jsonb(woken) AS run, woken.signalled, woken.claimed,
    CASE WHEN woken.claimed THEN ${journalSql("woken.id", "signal")} END AS journal,
    CASE WHEN woken.claimed THEN coalesce((SELECT last_seq FROM added), ${lastSeqSql("$2")}, 0) END AS last_seq,
    CASE WHEN woken.status = 'ready' THEN pg_notify('${RUNS_CHANNEL}', woken.id) END AS woke,
    ${notifyFollowers("$2")}
  FROM settled LEFT JOIN woken ON woken.id = settled.run_id`;

/**
 * The one statement a person's answer, skip, approval or rejection is: the row settled, and its
 * run woken, together or not at all.
 */
export class SettlementStore {
  /**
   * @param db The store's database.
   * @param written Told of the frames this store writes.
   */
  constructor(
    private readonly db: Database,
    private readonly written: FramesWritten,
  ) {}

  /**
   * Settles a pending row and wakes its run, in one statement. When the run is parked on exactly
   * this call, nothing else writes its journal, so the signal checkpoint and its frames are
   * recorded here, at the journal's next position, as a signal is recorded in a workflow's
   * history when it arrives; the run is then claimed under `lease` (the caller has room to run
   * it) or made ready with a notification for any process. A run that is still running, or
   * ready, may be anywhere in its journal: the row is settled and the run flagged, and the loop
   * records the signal when it reaches it. A row that is not pending is left as it is, and so is
   * one whose run's deadline passed (it expires, never settled).
   */
  async settle(settlement: PersonSettlement, lease?: Lease): Promise<SettleResult> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.settleOnce(settlement, lease);
      } catch (error) {
        if ((error as { code?: string }).code !== "23505" || attempt >= ATTEMPTS) throw error;
      }
    }
  }

  private async settleOnce(settlement: PersonSettlement, lease: Lease | undefined): Promise<SettleResult> {
    const rows = await this.db.query(SETTLE_SQL, [
      settlement.callId,
      settlement.runId,
      settlement.status,
      json(settlement.output),
      settlement.signal.name,
      json(settlement.signal.result),
      jsonArrayOnce(settlement.signal.frames),
      lease?.owner ?? null,
      lease?.leaseMs ?? 0,
      settlement.edits?.input === undefined ? null : json(settlement.edits.input),
      settlement.edits ? json(settlement.edits.edited) : null,
    ]);
    const row = rows[0];
    if (!row) {
      const current = await this.db.query("SELECT * FROM prepick_tool_calls WHERE id = $1", [
        settlement.callId,
      ]);
      return { settled: false, row: current[0] ? toToolCall(current[0]) : undefined };
    }
    const first = firstSeqOf(row);
    if (first !== undefined) this.written(settlement.runId, first, settlement.signal.frames);
    const signalled = row.signalled === true;
    if (row.claimed !== true) return { settled: true, signalled };
    return {
      settled: true,
      signalled,
      claimed: {
        run: toRun(row.run as Row),
        checkpoints: toJournal(row.journal),
        lastSeq: Number(row.last_seq),
      },
    };
  }
}
