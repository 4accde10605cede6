import type { ElicitationOutcome, ElicitationRequest, Question } from "./question";

/**
 * The frames of the reference server's event stream, one JSON object per SSE event, each event
 * carrying `id: <sequence number>`. The server writes them; AgentChatTransport reads them.
 * A run's frames are stored, so a reader that lost its connection resumes from the last id it saw.
 */
export type Frame =
  | RunStartFrame
  | StepStartFrame
  | StepFinishFrame
  | TextStartFrame
  | TextDeltaFrame
  | TextEndFrame
  | ReasoningStartFrame
  | ReasoningDeltaFrame
  | ReasoningEndFrame
  | ToolCallFrame
  | ApprovalRequestFrame
  | ElicitationFrame
  | ToolOutputFrame
  | ToolErrorFrame
  | ToolDeniedFrame
  | ToolApprovedFrame
  | RunParkedFrame
  | RunFinishFrame;

/** Opens a run's part of the transcript: the assistant message every later frame lands in. */
export interface RunStartFrame {
  kind: "run-start";
  /** The run. */
  runId: string;
  /** The thread the run belongs to. */
  threadId: string;
  /** The assistant message id; the same on every continuation of the run. */
  messageId: string;
  /** The agent that runs. */
  agent: string;
}

/** A model call begins (`stream:step-start:<step>` in the journal). */
export interface StepStartFrame {
  kind: "step-start";
  /** Zero-based index of the model call within the turn. */
  step: number;
}

/** A model call ended. */
export interface StepFinishFrame {
  kind: "step-finish";
  /** Zero-based index of the model call within the turn. */
  step: number;
}

/** A text part begins. */
export interface TextStartFrame {
  kind: "text-start";
  /** The text part's id. */
  id: string;
}

/** More text for an open text part. */
export interface TextDeltaFrame {
  kind: "text-delta";
  /** The text part's id. */
  id: string;
  /** The text to append. */
  delta: string;
}

/** A text part is complete. */
export interface TextEndFrame {
  kind: "text-end";
  /** The text part's id. */
  id: string;
}

/** A reasoning part begins. */
export interface ReasoningStartFrame {
  kind: "reasoning-start";
  /** The reasoning part's id. */
  id: string;
}

/** More reasoning for an open reasoning part. */
export interface ReasoningDeltaFrame {
  kind: "reasoning-delta";
  /** The reasoning part's id. */
  id: string;
  /** The text to append. */
  delta: string;
}

/** A reasoning part is complete. */
export interface ReasoningEndFrame {
  kind: "reasoning-end";
  /** The reasoning part's id. */
  id: string;
}

/** The model called a registered tool; its input is complete. */
export interface ToolCallFrame {
  kind: "tool-call";
  /** The tool call's id. */
  id: string;
  /** The registered tool's name. */
  toolName: string;
  /** The tool's input as the model gave it. */
  input: unknown;
}

/** A tool call waits for a person's approval before it runs. */
export interface ApprovalRequestFrame {
  kind: "approval-request";
  /** The tool call's id, which approve and reject name. */
  id: string;
  /** The registered tool's name. */
  toolName: string;
  /** The tool's input, for the person to judge. */
  input: unknown;
  /** What the tool does, as its definition describes it, so the person knows what they allow. */
  description?: string;
  /**
   * When the tool's input is editable: one question per editable field (its id the field's
   * name), pre-picked with the model's proposed value. Approving may send answers to them.
   */
  questions?: Question[];
  /** The run's deadline (ISO 8601), when it has one: past it, the call expires undecided. */
  expiresAt?: string;
}

/** A question set is posted: render the form. */
export interface ElicitationFrame {
  kind: "elicitation";
  /** The tool call's id: `intake-<runId>` for an intake, the model's call id for an ask. */
  id: string;
  /** The preamble and the questions. */
  request: ElicitationRequest;
  /** The run's deadline (ISO 8601), when it has one: past it, the set expires unanswered. */
  expiresAt?: string;
}

/** A tool call settled with an output; for a question set, the {@link ElicitationOutcome}. */
export interface ToolOutputFrame {
  kind: "tool-output";
  /** The tool call's id. */
  id: string;
  /** The tool's result, or the question set's outcome. */
  output: unknown;
}

/** A tool call failed; the model is told the error and the run goes on. */
export interface ToolErrorFrame {
  kind: "tool-error";
  /** The tool call's id. */
  id: string;
  /** What went wrong, for a person and the model. */
  error: string;
  /** Set when the call did not finish in time (`tool-timeout`): a client says so in its own words. */
  code?: ToolErrorCode;
}

/** A person rejected a tool call, or its run was cancelled while it waited. */
export interface ToolDeniedFrame {
  kind: "tool-denied";
  /** The tool call's id. */
  id: string;
  /** The person's reason, if given. */
  reason?: string;
  /** Set when the run was cancelled while the call waited: nobody decided it. */
  cancelled?: true;
  /** Set (with `cancelled`) when the run's deadline passed while the call waited. */
  expired?: true;
}

/**
 * A person approved a tool call whose input was editable: the input it runs with and the fields
 * they changed (`[]` when approved as proposed). Streamed when the approval is recorded, before
 * the tool's own `tool-output` or `tool-error`.
 */
export interface ToolApprovedFrame {
  kind: "tool-approved";
  /** The tool call's id. */
  id: string;
  /** The whole input the tool runs with. */
  input: Record<string, unknown>;
  /** The ids of the fields the person changed from the model's proposal. */
  edited: string[];
}

/** The run is parked until a person acts on these tool calls; the stream ends here. */
export interface RunParkedFrame {
  kind: "run-parked";
  /** The pending tool calls the run waits on. */
  waitingFor: string[];
}

/** The run ended. */
export interface RunFinishFrame {
  kind: "run-finish";
  /** How it ended. */
  status: "completed" | "failed" | "cancelled";
  /** Why it failed, when it did: an English sentence that never holds a provider's or database's text. */
  error?: string;
  /** Why it failed, as a code a client turns into its own sentence (see {@link RunErrorCode}). */
  code?: RunErrorCode;
  /**
   * The failure's id, also on the server's log line that holds the technical detail: what a person
   * quotes to support.
   */
  errorId?: string;
  /** Set (with `cancelled`) when the run's opt-in deadline passed while it waited on a person. */
  expired?: true;
}

/**
 * Why a run failed:
 * - `model-timeout`: the model did not finish a call within the agent's time limit;
 * - `model-failed`: the model's provider refused or failed the call (its text is in the server log);
 * - `step-limit`: the model kept calling tools without answering;
 * - `agent-changed`: the agent's definition changed under the run in flight;
 * - `agent-missing`: the run's agent is not hosted any more;
 * - `internal`: anything else; the server log holds the detail under the `errorId`.
 */
export type RunErrorCode =
  | "model-timeout"
  | "model-failed"
  | "step-limit"
  | "agent-changed"
  | "agent-missing"
  | "internal";

/** Why a tool call failed, when the loop knows: `tool-timeout`, it did not finish within its time limit. */
export type ToolErrorCode = "tool-timeout";

/** A frame with its sequence number, as read from the stream. */
export interface SequencedFrame {
  /** The SSE event id: the frame's position in its run, from 1. */
  seq: number;
  /** The frame. */
  frame: Frame;
  /**
   * True for a model call's frame streamed before the call's checkpoint stored it: its event had
   * no id, and `seq` is the place it takes after the last stored frame. It is stored with that
   * number when the call ends (a later frame with an id says so); a reader that reconnects before
   * then drops it and resumes from the last stored frame, since a call cut short is made again.
   */
  unstored?: true;
}

/** The outcome carried by a question set's tool-output frame. */
export type ElicitationOutputFrame = ToolOutputFrame & { output: ElicitationOutcome };
