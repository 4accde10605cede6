import type { Database } from "../database/database";
import { toToolCall } from "./read-rows";
import type { OwnedToolCall } from "./rows";

/**
 * The tool-call rows: a registered tool's call, an approval, a question set. The loop writes them
 * with its checkpoints (see `CheckpointStore.record`); a person settles them through
 * `SettlementStore.settle`.
 */
export class ToolCallStore {
  /** @param db The store's database. */
  constructor(private readonly db: Database) {}

  /** A tool-call row by id, with its owner. */
  async get(id: string): Promise<OwnedToolCall | undefined> {
    const rows = await this.db.query("SELECT * FROM prepick_tool_calls WHERE id = $1", [id]);
    return rows[0] ? toToolCall(rows[0]) : undefined;
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
}
