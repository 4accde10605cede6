import type { ModelMessage } from "ai";
import type { Question } from "prepick/core";
import type {
  CheckpointRow,
  OwnedToolCall,
  RunRow,
  RunStatus,
  ThreadRow,
  ToolCallStatus,
  UserMessage,
} from "./rows";

/** A row as a driver returns it. */
export type Row = Record<string, unknown>;

// Timestamps come from a column already as ISO strings (`type-parsers.ts`), as text from
// `to_jsonb`, or as Dates; all leave as ISO strings in UTC with milliseconds.
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const iso = (value: unknown) =>
  typeof value === "string" && ISO.test(value)
    ? value
    : (value instanceof Date ? value : new Date(String(value))).toISOString();
const isoOrNull = (value: unknown) => (value === null || value === undefined ? null : iso(value));

/** A `prepick_threads` row. */
export function toThread(row: Row): ThreadRow {
  return {
    id: String(row.id),
    actorId: String(row.actor_id),
    agent: String(row.agent),
    createdAt: iso(row.created_at),
  };
}

/** A `prepick_runs` row. */
export function toRun(row: Row): RunRow {
  return {
    id: String(row.id),
    threadId: String(row.thread_id),
    actorId: String(row.actor_id),
    agent: String(row.agent),
    turn: Number(row.turn),
    messageId: String(row.message_id),
    userMessage: row.user_message as UserMessage,
    status: row.status as RunStatus,
    waitingOn: row.waiting_on === null || row.waiting_on === undefined ? null : String(row.waiting_on),
    wakePending: Boolean(row.wake_pending),
    cancelRequested: Boolean(row.cancel_requested),
    error: row.error === null || row.error === undefined ? null : String(row.error),
    modelMessages: (row.model_messages ?? null) as ModelMessage[] | null,
    expiresAt: isoOrNull(row.expires_at),
    createdAt: iso(row.created_at),
  };
}

/** A `prepick_tool_calls` row, with its owner. */
export function toToolCall(row: Row): OwnedToolCall {
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
    ...(row.questions ? { questions: row.questions as Question[] } : {}),
    ...(row.proposed_input !== null && row.proposed_input !== undefined
      ? { proposedInput: row.proposed_input }
      : {}),
    ...(Array.isArray(row.edited) ? { edited: row.edited as string[] } : {}),
  };
}

/** A journal aggregated by a statement (`jsonb_agg` of position, name, result), in order. */
export function toJournal(value: unknown): CheckpointRow[] {
  const entries = (value ?? []) as { position: number; name: string; result: unknown }[];
  return entries.map((entry) => ({
    position: Number(entry.position),
    name: String(entry.name),
    result: entry.result,
  }));
}
