import type { CallView, InboxEvent, PendingCall } from "prepick/core";
import type { Database } from "../database/database";
import { type Row, toToolCall } from "./read-rows";

/** A pending call with the inbox version it took when it started waiting. */
export interface VersionedPendingCall {
  /** The actor's inbox version of the change. */
  version: number;
  /** The call. */
  call: PendingCall;
}

/** One change to an actor's inbox, with the version it took. */
export interface InboxChange {
  /** The actor's inbox version of the change; the feed's event id. */
  version: number;
  /** What changed: a call started waiting, or was settled. */
  event: Extract<InboxEvent, { kind: "waiting" | "settled" }>;
}

// Every read of the inbox joins the thread for its agent and the run for its assistant message.
const CALLS = `SELECT t.*, th.agent, r.message_id, r.expires_at FROM prepick_tool_calls t
  JOIN prepick_threads th ON th.id = t.thread_id JOIN prepick_runs r ON r.id = t.run_id`;

/** A joined row as the wire's pending call, with the frame the run posted it with. */
function toPendingCall(row: Row): PendingCall {
  const call = toToolCall(row);
  // The run's opt-in deadline, as the frame carried it.
  const expiry = row.expires_at ? { expiresAt: new Date(row.expires_at as string).toISOString() } : {};
  return {
    id: call.id,
    runId: call.runId,
    messageId: String(row.message_id),
    threadId: call.threadId,
    agent: String(row.agent),
    name: call.name,
    toolType: call.toolType,
    status: "pending_approval",
    input: call.input,
    askedAt: call.createdAt,
    posted:
      call.name === "ask"
        ? { kind: "elicitation", id: call.id, request: call.input as never, ...expiry }
        : {
            kind: "approval-request",
            id: call.id,
            toolName: call.name,
            input: call.input,
            ...(call.questions ? { questions: call.questions } : {}),
            ...expiry,
          },
  };
}

/**
 * The approvals inbox: each actor's waiting calls, in the order they started waiting, and the
 * changes to it. A trigger (migration 3) stamps every change, a call that starts waiting or
 * stops, with the actor's next inbox version and sends a NOTIFY on `INBOX_CHANNEL`; the
 * versions of one actor commit in order, so reading "after version N" never skips a change.
 */
export class PendingCallStore {
  /** @param db The store's database. */
  constructor(private readonly db: Database) {}

  /** The actor's waiting calls after inbox version `after`, oldest first, at most `limit`. */
  async page(actorId: string, after: number, limit: number): Promise<VersionedPendingCall[]> {
    const rows = await this.db.query(
      `${CALLS} WHERE t.actor_id = $1 AND t.status = 'pending_approval' AND t.inbox_version > $2
       ORDER BY t.inbox_version LIMIT $3`,
      [actorId, after, limit],
    );
    return rows.map((row) => ({ version: Number(row.inbox_version), call: toPendingCall(row) }));
  }

  /** One call of the actor's, waiting or not, as its deep link shows it; undefined for another's. */
  async view(actorId: string, callId: string): Promise<CallView | undefined> {
    const rows = await this.db.query(`${CALLS} WHERE t.id = $1 AND t.actor_id = $2`, [callId, actorId]);
    const row = rows[0];
    if (!row) return undefined;
    const call = toToolCall(row);
    return { ...toPendingCall(row), status: call.status, output: call.output, settledAt: call.settledAt };
  }

  /** The actor's latest inbox version: 0 before anything waited. */
  async head(actorId: string): Promise<number> {
    const rows = await this.db.query("SELECT version FROM prepick_inbox_versions WHERE actor_id = $1", [
      actorId,
    ]);
    return rows[0] ? Number(rows[0].version) : 0;
  }

  /**
   * The changes to the actor's inbox after version `after`, in order, at most `limit`. A call
   * shows once, as it stands now: one that started waiting and was settled since reads as settled.
   */
  async changes(actorId: string, after: number, limit: number): Promise<InboxChange[]> {
    const rows = await this.db.query(
      `${CALLS} WHERE t.actor_id = $1 AND t.inbox_version > $2 ORDER BY t.inbox_version LIMIT $3`,
      [actorId, after, limit],
    );
    return rows.map((row) => {
      const version = Number(row.inbox_version);
      if (row.status === "pending_approval") {
        return { version, event: { kind: "waiting", call: toPendingCall(row) } };
      }
      return {
        version,
        event: {
          kind: "settled",
          id: String(row.id),
          threadId: String(row.thread_id),
          status: String(row.status),
        },
      };
    });
  }
}
