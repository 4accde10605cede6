import type { ModelMessage } from "ai";
import type { Question } from "prepick/core";

/** Where a run is: waiting for a worker, running, parked on a person, or ended. */
export type RunStatus = "ready" | "running" | "parked" | "completed" | "failed" | "cancelled";

/** The statuses a tool-call row moves through. */
export type ToolCallStatus =
  | "pending_approval"
  | "running"
  | "answered"
  | "skipped"
  | "approved"
  | "rejected"
  | "cancelled"
  | "expired"
  | "completed"
  | "failed";

/** The user message that started a run, as the wire carries it. */
export interface UserMessage {
  /** The message id (the client's, or one the server made). */
  id: string;
  /** Always `user`. */
  role: "user";
  /** The text parts. */
  parts: { type: "text"; text: string }[];
}

/** A conversation between one actor and one agent. */
export interface ThreadRow {
  /** The thread id. */
  id: string;
  /** The actor who owns it. */
  actorId: string;
  /** The agent it talks to. */
  agent: string;
  /** When it began. */
  createdAt: string;
}

/** One turn of a thread: a user message and the agent's answer to it. */
export interface RunRow {
  /** The run id. */
  id: string;
  /** The thread. */
  threadId: string;
  /** The thread's owner. */
  actorId: string;
  /** The agent that runs. */
  agent: string;
  /** Zero-based position of the turn in its thread. */
  turn: number;
  /** The assistant message id, reused by every continuation. */
  messageId: string;
  /** The message that started the turn. */
  userMessage: UserMessage;
  /** Where the run is. */
  status: RunStatus;
  /** The call a parked run waits on; null while it is not parked. */
  waitingOn: string | null;
  /** Set when a settlement arrived while the run was running, so it must not park. */
  wakePending: boolean;
  /** Set when cancel was asked while the run was running. */
  cancelRequested: boolean;
  /** Why it failed, when it did. */
  error: string | null;
  /** The turn's model messages once it ended, for later turns' history. */
  modelMessages: ModelMessage[] | null;
  /** Its opt-in deadline (ISO 8601): past it, a wait on a person ends the run as expired. Null: none. */
  expiresAt: string | null;
  /** When it began. */
  createdAt: string;
}

/** A tool call, an approval or a question set, as the approvals inbox and the endpoints see it. */
export interface ToolCallRow {
  /** The call id: `call-<step>-<index>-<runId>` for a model's call, `intake-<runId>` for an intake. */
  id: string;
  /** The run. */
  runId: string;
  /** The thread. */
  threadId: string;
  /** The registered tool's name, or `ask`. */
  name: string;
  /** `action` for a question set and for registered tools. */
  toolType: string;
  /** Where the call is. */
  status: ToolCallStatus;
  /** The tool's input (once approved, the input it runs with); for `ask`, the elicitation request. */
  input: unknown;
  /** The result; for `ask`, the settled outcome. */
  output: unknown;
  /** An editable approval's questions, one per editable field, pre-picked with the proposal. */
  questions?: Question[];
  /** An approved editable call: the input the model proposed, when the person edited it. */
  proposedInput?: unknown;
  /** An approved editable call: the fields the person changed (`[]` when approved as proposed). */
  edited?: string[];
  /** When it was created. */
  createdAt: string;
  /** When a person or the tool settled it. */
  settledAt: string | null;
}

/** A tool-call row with its owner, for ownership checks; never sent over the wire as is. */
export interface OwnedToolCall extends ToolCallRow {
  /** The actor who owns the thread. */
  actorId: string;
}

/** One recorded checkpoint of a run's journal. */
export interface CheckpointRow {
  /** Zero-based position in the journal. */
  position: number;
  /** The checkpoint's name, e.g. `persist:run:start`. */
  name: string;
  /** What the checkpointed work returned; replay returns it instead of redoing the work. */
  result: unknown;
}

/** A run a process has just claimed, with its journal read in the same statement. */
export interface ClaimedRun {
  /** The run, `running` under the claimant's lease. */
  run: RunRow;
  /** Its checkpoints so far, in order. */
  checkpoints: CheckpointRow[];
  /** The number of its last frame (0 before any): a model call's frames stream after it. */
  lastSeq: number;
}

/** What a process claims a run with: its name in leases, and how long the lease lasts. */
export interface Lease {
  /** The process's name in leases. */
  owner: string;
  /** How long the claim holds without renewal, in ms. */
  leaseMs: number;
}
