import type { UIMessageChunk } from "ai";
import type { SequencedFrame } from "@/lib/prepick/core/frames";
import type { RunStatus } from "./conversation-transport";
import { runFailureText } from "./run-failure";
import {
  approvalRequestChunk,
  approvalResponseChunk,
  askInputChunk,
  toolDeniedChunk,
  toolErrorChunk,
  toolInputChunk,
  toolOutputChunk,
} from "./tool-chunks";

/** What the fold remembers between frames. Plain data: copy it, store it, resume from it. */
export interface FoldState {
  /** The run the frames belong to, once `run-start` was seen. */
  runId?: string;
  /** The assistant message id every chunk lands in. */
  messageId?: string;
  /** The highest sequence number folded; frames at or below it are replays and are dropped. */
  lastSeq: number;
  /** The run's status after the last frame. */
  status: RunStatus;
  /** Tool call ids posted as question sets (dynamic `ask` parts). */
  elicitations: readonly string[];
  /** Tool call ids of registered tools whose input was emitted. */
  tools: readonly string[];
  /** Tool call ids waiting for approval (the approval id is the tool call id). */
  approvals: readonly string[];
  /** Tool call ids that settled; a later frame for them is ignored. */
  settled: readonly string[];
}

/** A fold that has seen nothing. */
export const INITIAL_FOLD_STATE: FoldState = {
  lastSeq: 0,
  status: "running",
  elicitations: [],
  tools: [],
  approvals: [],
  settled: [],
};

/** The result of folding: the new state and the chunks to emit, in order. */
export interface FoldResult {
  /** The state after the frames. */
  state: FoldState;
  /** The AI SDK chunks the frames become. */
  chunks: UIMessageChunk[];
}

const without = (list: readonly string[], id: string) => list.filter((item) => item !== id);

function known(state: FoldState, id: string): boolean {
  return state.elicitations.includes(id) || state.tools.includes(id);
}

/**
 * Folds one frame into AI SDK chunks. The elicitation frame becomes one dynamic, provider-executed
 * `ask` tool part, and its later tool-output frame settles that same part, so a question set is
 * one part however many responses it spans. Approvals use the AI SDK's approval states; a denied
 * call becomes `tool-output-denied`. An editable call's questions ride as the part's tool
 * metadata, and its approval (`tool-approved`) carries the input it runs with and the fields
 * edited as the approval response's provider metadata. Pure: the same state and frame always give
 * the same result.
 */
export function foldFrame(state: FoldState, { seq, frame }: SequencedFrame): FoldResult {
  if (seq <= state.lastSeq) return { state, chunks: [] };
  let next: FoldState = { ...state, lastSeq: seq };
  const chunks: UIMessageChunk[] = [];
  switch (frame.kind) {
    case "run-start":
      next = { ...next, runId: frame.runId, messageId: frame.messageId, status: "running" };
      chunks.push({ type: "start", messageId: frame.messageId });
      break;
    case "step-start":
      next = { ...next, status: "running" };
      chunks.push({ type: "start-step" });
      break;
    case "step-finish":
      chunks.push({ type: "finish-step" });
      break;
    case "text-start":
    case "text-end":
    case "reasoning-start":
    case "reasoning-end":
      chunks.push({ type: frame.kind, id: frame.id });
      break;
    case "text-delta":
    case "reasoning-delta":
      chunks.push({ type: frame.kind, id: frame.id, delta: frame.delta });
      break;
    case "tool-call":
    case "approval-request":
      if (!known(next, frame.id)) {
        next = { ...next, tools: [...next.tools, frame.id] };
        const { id: toolCallId, toolName, input } = frame;
        const { description, expiresAt, questions } = frame.kind === "approval-request" ? frame : {};
        chunks.push(toolInputChunk({ toolCallId, toolName, input, description, expiresAt, questions }));
      }
      if (frame.kind === "approval-request" && !next.approvals.includes(frame.id)) {
        next = { ...next, approvals: [...next.approvals, frame.id] };
        chunks.push(approvalRequestChunk(frame.id));
      }
      break;
    case "elicitation":
      if (!known(next, frame.id)) {
        next = { ...next, elicitations: [...next.elicitations, frame.id] };
        chunks.push(askInputChunk(frame.id, frame.request, frame.expiresAt));
      }
      break;
    case "tool-approved":
      // An editable call's approval: decided now, with the input it runs with; its result follows.
      if (next.approvals.includes(frame.id)) {
        const { input, edited } = frame;
        chunks.push(approvalResponseChunk(frame.id, true, undefined, { input, edited }));
        next = { ...next, approvals: without(next.approvals, frame.id) };
      }
      break;
    case "tool-output":
    case "tool-error":
    case "tool-denied": {
      if (!known(next, frame.id) || next.settled.includes(frame.id)) break;
      const dynamic = next.elicitations.includes(frame.id);
      if (next.approvals.includes(frame.id)) {
        // A call cancelled with its run was never decided: no approval response, only the denial.
        if (frame.kind !== "tool-denied" || !frame.cancelled) {
          const reason = frame.kind === "tool-denied" ? frame.reason : undefined;
          chunks.push(approvalResponseChunk(frame.id, frame.kind !== "tool-denied", reason));
        }
        next = { ...next, approvals: without(next.approvals, frame.id) };
      }
      next = { ...next, settled: [...next.settled, frame.id] };
      if (frame.kind === "tool-output") {
        chunks.push(toolOutputChunk({ toolCallId: frame.id, output: frame.output, dynamic }));
      } else if (frame.kind === "tool-error") {
        chunks.push(toolErrorChunk({ toolCallId: frame.id, errorText: frame.error, dynamic }));
      } else {
        chunks.push(toolDeniedChunk(frame.id));
      }
      break;
    }
    case "run-parked":
      next = { ...next, status: "parked" };
      chunks.push({ type: "finish", finishReason: "tool-calls" });
      break;
    case "run-finish":
      next = { ...next, status: frame.status };
      // The failure's code and id, for the page to say in its own words (`readRunFailure`); the
      // server's English sentence when an older server sent no code.
      if (frame.status === "failed")
        chunks.push({
          type: "error",
          errorText: frame.code ? runFailureText(frame) : (frame.error ?? "The run failed."),
        });
      chunks.push({ type: "finish", finishReason: frame.status === "completed" ? "stop" : "other" });
      break;
  }
  return { state: next, chunks };
}

/** Folds frames in order from `state` (a fresh fold by default). Used live and to hydrate. */
export function foldFrames(
  frames: Iterable<SequencedFrame>,
  state: FoldState = INITIAL_FOLD_STATE,
): FoldResult {
  const chunks: UIMessageChunk[] = [];
  let current = state;
  for (const frame of frames) {
    const result = foldFrame(current, frame);
    current = result.state;
    chunks.push(...result.chunks);
  }
  return { state: current, chunks };
}
