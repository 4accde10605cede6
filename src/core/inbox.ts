import type { ApprovalRequestFrame, ElicitationFrame } from "./frames";

/**
 * A tool call waiting for a person: a question set to answer or skip, or a registered tool's
 * call to approve or reject. `GET /agent/approvals` lists them and the inbox feed announces them.
 */
export interface PendingCall {
  /** The tool call's id, which answer, skip, approve and reject name. */
  id: string;
  /** The run that waits on it. */
  runId: string;
  /** The run's assistant message, where the transcript shows the call. */
  messageId: string;
  /** The conversation it belongs to. */
  threadId: string;
  /** The agent of that conversation. */
  agent: string;
  /** `ask` for a question set, else the registered tool's name. */
  name: string;
  /** `action` for a question set and for registered tools. */
  toolType: string;
  /** Always `pending_approval` while it waits. */
  status: "pending_approval";
  /** The tool's input; for a question set, the elicitation request. */
  input: unknown;
  /** When it was asked (ISO 8601). */
  askedAt: string;
  /** The frame the run posted it with: the question set, or the tool call awaiting approval. */
  posted: ElicitationFrame | ApprovalRequestFrame;
}

/**
 * One call as its deep link reads it (`GET /agent/tool-calls/:callId`): what the inbox lists for a
 * waiting call, and for one that stopped waiting its status and output, so the page says what
 * became of it and links to its conversation.
 */
export interface CallView extends Omit<PendingCall, "status"> {
  /** `pending_approval` while it waits; else answered, skipped, approved, rejected, cancelled… */
  status: string;
  /** The settled output (a question set's outcome), once it stopped waiting; null before. */
  output: unknown;
  /** When it stopped waiting (ISO 8601), or null. */
  settledAt: string | null;
  /**
   * A waiting question set's draft: what the person typed into it on another device (the values
   * they set by question id, their current question, when it was saved). Never an answer.
   */
  draft?: { values: Record<string, string[]>; index: number; updatedAt: string };
}

/**
 * One event of the inbox feed (`GET /agent/approvals/stream`). `waiting`: a call started waiting
 * (or was waiting when the feed was opened). `settled`: a call stopped waiting, answered, skipped,
 * approved, rejected or cancelled, by anyone in any process. `synced`: everything up to now has
 * been sent; what follows is live. `reset`: the reader's `Last-Event-ID` is past anything this
 * store sent (a store restored from a backup): the `waiting` events up to `synced` are what waits
 * now, and replace what the reader knew.
 */
export type InboxEvent =
  | { kind: "waiting"; call: PendingCall }
  | { kind: "settled"; id: string; threadId: string; status: string }
  | { kind: "synced" }
  | { kind: "reset" };

/** A conversation as `GET /agent/threads` lists it. */
export interface ThreadSummary {
  /** The thread id. */
  id: string;
  /** The agent it talks to. */
  agent: string;
  /** The first user message, shortened. */
  title: string;
  /** When it began (ISO 8601). */
  createdAt: string;
  /** When its latest turn began (ISO 8601); the list is newest first by it. */
  lastActiveAt: string;
  /** How many calls wait for a person in it. */
  waiting: number;
}

/** A page of a list endpoint: pass `nextCursor` as `?cursor=` for the next one; null at the end. */
export interface Page {
  /** The next page's cursor, or null when this page is the last. */
  nextCursor: string | null;
}
