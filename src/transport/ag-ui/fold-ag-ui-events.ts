import {
  type BaseEvent,
  EventType,
  type ReasoningMessageContentEvent,
  type ReasoningMessageEndEvent,
  type ReasoningMessageStartEvent,
  type RunErrorEvent,
  type RunFinishedEvent,
  type TextMessageContentEvent,
  type TextMessageEndEvent,
  type TextMessageStartEvent,
  type ToolCallArgsEvent,
  type ToolCallEndEvent,
  type ToolCallResultEvent,
  type ToolCallStartEvent,
} from "@ag-ui/client";
import type { UIMessageChunk } from "ai";
import type { ApprovalEdits } from "@/lib/prepick/core/approval-edits";
import type { ElicitationOutcome } from "@/lib/prepick/core/question";
import type { RunStatus } from "@/lib/prepick/transport/conversation-transport";
import { runFailureText } from "@/lib/prepick/transport/run-failure";
import {
  approvalRequestChunk,
  approvalResponseChunk,
  askInputChunk,
  askOutputChunk,
  toolDeniedChunk,
  toolInputChunk,
  toolInputErrorChunk,
  toolInputStartChunk,
  toolOutputChunk,
} from "@/lib/prepick/transport/tool-chunks";
import { approvalInput, type InterruptSet, PREPICK_METADATA_KEY, readInterruptSet } from "./interrupt-set";

/**
 * The text of a `RUN_ERROR`'s `error` chunk: a Prepick producer's failure code and error id
 * (`metadata.prepick`), for the page to say in its own words; any other agent's message as it is.
 */
function runErrorText(event: RunErrorEvent): string {
  const carried = (event as { metadata?: Record<string, unknown> }).metadata?.[PREPICK_METADATA_KEY] as
    | { code?: unknown; errorId?: unknown }
    | undefined;
  if (typeof carried?.code === "string") {
    return runFailureText({
      code: carried.code,
      ...(typeof carried.errorId === "string" ? { errorId: carried.errorId } : {}),
    });
  }
  return event.message || "The run failed.";
}

/** How the person settled one interrupt, to be sent as its resume entry. */
export interface InterruptDecision {
  /** `resolved` when answered or approved; `cancelled` when skipped or rejected. */
  status: "resolved" | "cancelled";
  /** The answer, for `resolved`. */
  payload?: unknown;
  /**
   * The entry's metadata: a rejection's reason travels as `{ prepick: { reason } }`, since a
   * `cancelled` entry carries no payload. An agent that does not know it ignores it.
   */
  metadata?: Record<string, unknown>;
  /** An editable approval's edits as the person made them: the input it runs with, the fields changed. */
  edits?: ApprovalEdits;
}

/** The reason a rejection carries in its resume entry's metadata, if any. */
export function rejectionReason(decision: InterruptDecision | undefined): string | undefined {
  const carried = decision?.metadata?.[PREPICK_METADATA_KEY];
  const reason =
    typeof carried === "object" && carried !== null ? (carried as { reason?: unknown }).reason : undefined;
  return typeof reason === "string" ? reason : undefined;
}

/** A tool call streamed in the message. */
export interface StreamedToolCall {
  /** The tool's name. */
  toolName: string;
  /** The arguments so far, as streamed JSON text. */
  args: string;
  /** True once `TOOL_CALL_END` was seen. */
  ended: boolean;
}

/** What the fold remembers between events. Plain data: copy it, store it, resume from it. */
export interface AgUiFoldState {
  /** The assistant message every chunk lands in, across every run that continues it. */
  messageId: string;
  /** Whether the `start` chunk was emitted. */
  started: boolean;
  /** Where the latest run stands: `parked` when it ended with interrupts. */
  status: RunStatus;
  /** Text messages open in the stream. */
  openText: readonly string[];
  /** Reasoning messages open in the stream. */
  openReasoning: readonly string[];
  /** Tool calls streamed so far, by id. */
  tools: Readonly<Record<string, StreamedToolCall>>;
  /** Tool calls that have their output; a later result for them is ignored. */
  settled: readonly string[];
  /** The interrupts the latest run ended with, as Prepick shows them, until they are settled. */
  pending?: InterruptSet;
  /** The person's decision per pending interrupt, by interrupt id. */
  decisions: Readonly<Record<string, InterruptDecision>>;
  /** The pending question set's outcome, once answered or skipped. */
  outcome?: ElicitationOutcome;
}

/** The result of folding: the new state and the chunks to emit, in order. */
export interface AgUiFoldResult {
  /** The state after the event. */
  state: AgUiFoldState;
  /** The AI SDK chunks the event becomes. */
  chunks: UIMessageChunk[];
}

/** A fold that has seen nothing, for the assistant message `messageId`. */
export function initialAgUiFold(messageId: string): AgUiFoldState {
  return {
    messageId,
    started: false,
    status: "running",
    openText: [],
    openReasoning: [],
    tools: {},
    settled: [],
    decisions: {},
  };
}

const without = (list: readonly string[], id: string) => list.filter((item) => item !== id);

function textOf(content: ToolCallResultEvent["content"]): string {
  if (typeof content === "string") return content;
  return content.map((part) => (part.type === "text" ? part.text : "")).join("");
}

/** A tool result as the part's output: its JSON when it is JSON, else its text. */
function outputOf(content: ToolCallResultEvent["content"]): unknown {
  const text = textOf(content);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Closes what is still open, as a run's end does: open text and reasoning parts end. */
function closeOpen(state: AgUiFoldState, chunks: UIMessageChunk[]): AgUiFoldState {
  for (const id of state.openText) chunks.push({ type: "text-end", id });
  for (const id of state.openReasoning) chunks.push({ type: "reasoning-end", id });
  return { ...state, openText: [], openReasoning: [] };
}

/** A streamed tool call's arguments as its input: `{}` when it sent none. */
function streamedInput(
  call: StreamedToolCall | undefined,
): { ok: true; value: unknown } | { ok: false; error: string } {
  if (!call) return { ok: false, error: "no such call" };
  try {
    return { ok: true, value: call.args.trim() === "" ? {} : JSON.parse(call.args) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

function toolEnd(state: AgUiFoldState, id: string, chunks: UIMessageChunk[]): AgUiFoldState {
  const call = state.tools[id];
  if (!call || call.ended) return state;
  const tools = { ...state.tools, [id]: { ...call, ended: true } };
  const input = streamedInput(call);
  if (input.ok) chunks.push(toolInputChunk({ toolCallId: id, toolName: call.toolName, input: input.value }));
  else {
    const errorText = `The arguments of ${call.toolName} are not JSON: ${input.error}`;
    chunks.push(
      toolInputErrorChunk({ toolCallId: id, toolName: call.toolName, input: call.args, errorText }),
    );
  }
  return { ...state, tools };
}

/**
 * The parts an interrupt set asks on: one `ask` part for the questions, an approval per other
 * interrupt. An approval whose producer describes the tool, or lets its input be edited, carries
 * the description and the editable fields as the part's `toolMetadata` (as the Prepick server's
 * own stream does), set again on a streamed call's part; so does an interrupt's `expiresAt`, which
 * the cards say in the page's own language (`messages.deadline`), never written here in English.
 */
function interruptChunks(set: InterruptSet, tools: AgUiFoldState["tools"]): UIMessageChunk[] {
  const chunks: UIMessageChunk[] = [];
  const { questions } = set;
  if (questions) chunks.push(askInputChunk(questions.toolCallId, questions.request, questions.expiresAt));
  for (const approval of set.approvals) {
    const { interruptId, toolCallId, toolName, description, expiresAt, edit } = approval;
    const interrupt = set.interrupts.find((candidate) => candidate.id === interruptId);
    const described = {
      ...(description !== undefined ? { description } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      ...(edit ? { questions: edit.questions } : {}),
    };
    if (approval.ownPart && interrupt) {
      chunks.push(
        toolInputChunk({
          toolCallId,
          toolName,
          input: edit?.input ?? approvalInput(interrupt),
          dynamic: true,
          ...described,
        }),
      );
    } else if (Object.keys(described).length > 0) {
      // A streamed call's part has its input already: set again with the metadata it lacked.
      const input = streamedInput(tools[toolCallId]);
      if (input.ok) chunks.push(toolInputChunk({ toolCallId, toolName, input: input.value, ...described }));
    }
    chunks.push(approvalRequestChunk(interruptId, toolCallId));
  }
  return chunks;
}

function finish(state: AgUiFoldState, event: RunFinishedEvent, chunks: UIMessageChunk[]): AgUiFoldState {
  const closed = closeOpen(state, chunks);
  const outcome = event.outcome;
  if (outcome?.type === "interrupt") {
    const pending = readInterruptSet(outcome.interrupts, closed.tools);
    chunks.push(...interruptChunks(pending, closed.tools));
    chunks.push({ type: "finish", finishReason: "tool-calls" });
    return { ...closed, status: "parked", pending, decisions: {}, outcome: undefined };
  }
  const cancelled = outcome?.type === "cancelled";
  chunks.push({ type: "finish", finishReason: cancelled ? "other" : "stop" });
  return { ...closed, status: cancelled ? "cancelled" : "completed", pending: undefined };
}

/**
 * Folds one AG-UI event (as `@ag-ui/client` hands it on: verified, chunks expanded) into AI SDK
 * chunks. Text, reasoning and tool calls become the parts the Prepick server's frames become; a
 * `RUN_FINISHED` with an interrupt outcome becomes one dynamic, provider-executed `ask` part for
 * its questions and an approval for each other interrupt. Events Prepick does not show (state,
 * activity, steps, custom, raw, subagent lifecycle) fold to nothing. Pure.
 */
export function foldAgUiEvent(state: AgUiFoldState, event: BaseEvent): AgUiFoldResult {
  const chunks: UIMessageChunk[] = [];
  let next = state;
  switch (event.type) {
    case EventType.RUN_STARTED:
      next = { ...next, status: "running", started: true };
      if (!state.started) chunks.push({ type: "start", messageId: state.messageId });
      break;
    case EventType.TEXT_MESSAGE_START: {
      const { messageId, role } = event as TextMessageStartEvent;
      // Text in another role (a system or user line the agent streams) is not the assistant's reply.
      if ((role ?? "assistant") !== "assistant" || next.openText.includes(messageId)) break;
      next = { ...next, openText: [...next.openText, messageId] };
      chunks.push({ type: "text-start", id: messageId });
      break;
    }
    case EventType.TEXT_MESSAGE_CONTENT: {
      const { messageId, delta } = event as TextMessageContentEvent;
      if (next.openText.includes(messageId)) chunks.push({ type: "text-delta", id: messageId, delta });
      break;
    }
    case EventType.TEXT_MESSAGE_END: {
      const { messageId } = event as TextMessageEndEvent;
      if (!next.openText.includes(messageId)) break;
      next = { ...next, openText: without(next.openText, messageId) };
      chunks.push({ type: "text-end", id: messageId });
      break;
    }
    case EventType.REASONING_MESSAGE_START: {
      const { messageId } = event as ReasoningMessageStartEvent;
      if (next.openReasoning.includes(messageId)) break;
      next = { ...next, openReasoning: [...next.openReasoning, messageId] };
      chunks.push({ type: "reasoning-start", id: messageId });
      break;
    }
    case EventType.REASONING_MESSAGE_CONTENT: {
      const { messageId, delta } = event as ReasoningMessageContentEvent;
      if (next.openReasoning.includes(messageId))
        chunks.push({ type: "reasoning-delta", id: messageId, delta });
      break;
    }
    case EventType.REASONING_MESSAGE_END: {
      const { messageId } = event as ReasoningMessageEndEvent;
      if (!next.openReasoning.includes(messageId)) break;
      next = { ...next, openReasoning: without(next.openReasoning, messageId) };
      chunks.push({ type: "reasoning-end", id: messageId });
      break;
    }
    case EventType.TOOL_CALL_START: {
      const { toolCallId, toolCallName } = event as ToolCallStartEvent;
      if (next.tools[toolCallId]) break;
      const call: StreamedToolCall = { toolName: toolCallName, args: "", ended: false };
      next = { ...next, tools: { ...next.tools, [toolCallId]: call } };
      chunks.push(toolInputStartChunk(toolCallId, toolCallName));
      break;
    }
    case EventType.TOOL_CALL_ARGS: {
      const { toolCallId, delta } = event as ToolCallArgsEvent;
      const call = next.tools[toolCallId];
      if (!call || call.ended) break;
      next = { ...next, tools: { ...next.tools, [toolCallId]: { ...call, args: call.args + delta } } };
      chunks.push({ type: "tool-input-delta", toolCallId, inputTextDelta: delta });
      break;
    }
    case EventType.TOOL_CALL_END:
      next = toolEnd(next, (event as ToolCallEndEvent).toolCallId, chunks);
      break;
    case EventType.TOOL_CALL_RESULT: {
      const { toolCallId, content } = event as ToolCallResultEvent;
      // A result for a call never streamed (a tool that suspended to ask, say) has no part to settle.
      if (!next.tools[toolCallId] || next.settled.includes(toolCallId)) break;
      next = toolEnd(next, toolCallId, chunks);
      next = { ...next, settled: [...next.settled, toolCallId] };
      chunks.push(toolOutputChunk({ toolCallId, output: outputOf(content) }));
      break;
    }
    case EventType.RUN_FINISHED:
      next = finish(next, event as RunFinishedEvent, chunks);
      break;
    case EventType.RUN_ERROR:
      next = { ...closeOpen(next, chunks), status: "failed" };
      chunks.push({ type: "error", errorText: runErrorText(event as RunErrorEvent) });
      chunks.push({ type: "finish", finishReason: "other" });
      break;
  }
  return { state: next, chunks };
}

/** Whether every pending interrupt has the person's decision, so the next run can resume them. */
export function everyInterruptDecided(state: AgUiFoldState): boolean {
  return state.pending?.interrupts.every((interrupt) => state.decisions[interrupt.id]) ?? false;
}

/**
 * Settles the pending parts by the person's decisions, as the run that resumes them begins: the
 * `ask` part takes its outcome, each approval its response (and a rejected call its denial). Pure.
 */
export function settleInterrupts(state: AgUiFoldState): AgUiFoldResult {
  const pending = state.pending;
  if (!pending) return { state, chunks: [] };
  const chunks: UIMessageChunk[] = [];
  const settled = [...state.settled];
  const questions = pending.questions;
  if (questions) {
    settled.push(questions.toolCallId);
    chunks.push(
      state.outcome
        ? askOutputChunk(questions.toolCallId, state.outcome)
        : toolDeniedChunk(questions.toolCallId),
    );
  }
  for (const approval of pending.approvals) {
    const decision = state.decisions[approval.interruptId];
    const approved = decision?.status === "resolved";
    const reason = approved ? undefined : rejectionReason(decision);
    chunks.push(
      approvalResponseChunk(approval.interruptId, approved, reason, approved ? decision?.edits : undefined),
    );
    if (!approved) {
      settled.push(approval.toolCallId);
      chunks.push(toolDeniedChunk(approval.toolCallId));
    } else if (approval.ownPart) {
      // No tool of the agent's answers an approval of its own: the approval is its output.
      settled.push(approval.toolCallId);
      chunks.push(
        toolOutputChunk({ toolCallId: approval.toolCallId, output: { approved: true }, dynamic: true }),
      );
    }
  }
  return {
    state: { ...state, status: "running", pending: undefined, decisions: {}, outcome: undefined, settled },
    chunks,
  };
}
