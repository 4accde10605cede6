import { type BaseEvent, EventType, type Interrupt } from "@ag-ui/core";
import type { ElicitationRequest, Frame, Question, RunErrorCode } from "prepick/core";
import { questionsSchema } from "./response-schema";

/** The key of `metadata` under which Prepick carries what AG-UI has no field for. */
export const PREPICK_METADATA_KEY = "prepick";

/** The `reason` of an interrupt that asks a question set (an intake or an `ask`). */
export const QUESTIONS_REASON = "input_required";

/** The `reason` of an interrupt that waits for a tool call's approval. */
export const APPROVAL_REASON = "tool_approval";

/** How an AG-UI run ended, once the frames say so. */
export type RunEnding =
  | { kind: "interrupt"; interrupts: Interrupt[] }
  | { kind: "success" }
  | { kind: "cancelled"; expired?: true }
  | { kind: "failed"; message: string; code?: RunErrorCode; errorId?: string };

/**
 * The interrupt of a parked question set: its questions as a schema with defaults, and in full;
 * `expiresAt` when its run has an opt-in deadline.
 */
export function questionsInterrupt(id: string, request: ElicitationRequest, expiresAt?: string): Interrupt {
  return {
    id,
    reason: QUESTIONS_REASON,
    ...(request.preamble ? { message: request.preamble } : {}),
    responseSchema: questionsSchema(request),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    metadata: { [PREPICK_METADATA_KEY]: { request } },
  };
}

/** What an approval interrupt names: the tool, its input, and what the tool does when it says. */
export interface ApprovalSubject {
  /** The registered tool's name. */
  toolName: string;
  /** The tool's input as the model gave it. */
  input: unknown;
  /** The tool's own description, so the person knows what they allow. */
  description?: string;
  /** When the tool's input is editable: its fields as questions, pre-picked with the proposal. */
  questions?: Question[];
  /** The run's opt-in deadline (ISO 8601), when it has one. */
  expiresAt?: string;
}

/**
 * The interrupt of a tool call waiting for approval: it names the streamed call and carries the
 * tool's description in `metadata.prepick.description` (AG-UI has no field for it). An editable
 * call also asks for its input: `responseSchema` is its editable fields, each `default` the
 * model's proposal, and `metadata.prepick.questions` the same fields as our questions.
 */
export function approvalInterrupt(
  id: string,
  { toolName, input, description, questions, expiresAt }: ApprovalSubject,
): Interrupt {
  return {
    id,
    reason: APPROVAL_REASON,
    message: `Run the tool "${toolName}"?`,
    toolCallId: id,
    ...(questions ? { responseSchema: questionsSchema({ questions }) } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    metadata: {
      [PREPICK_METADATA_KEY]: {
        toolName,
        input,
        ...(description !== undefined ? { description } : {}),
        ...(questions ? { questions } : {}),
      },
    },
  };
}

function resultContent(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value ?? null);
}

/**
 * Translates one run's frames into AG-UI events, in order. Frames the reader already has (a
 * resumed run's frames before its park) are read with `emit: false`: they teach the translator
 * the run's question sets and approvals without sending anything again.
 *
 * - `text-*` and `reasoning-*` become `TEXT_MESSAGE_*` (role `assistant`) and `REASONING_*`, the
 *   message id the part's id prefixed with the run's, since part ids are unique only in a run.
 * - `step-start` / `step-finish` become `STEP_STARTED` / `STEP_FINISHED` named `model-call-<n>`.
 * - A `tool-call` or `approval-request` becomes `TOOL_CALL_START`, `_ARGS` (the input as JSON),
 *   `_END`; its `tool-output`, `tool-error` or `tool-denied` a `TOOL_CALL_RESULT`.
 * - An `elicitation` streams nothing: the question set travels only as its interrupt, and its
 *   outcome (`tool-output`) is the resume that settled it, so neither is sent as a tool call.
 * - `run-parked` ends the run with the interrupts it waits on; `run-finish` with success,
 *   cancelled, or failure (`RUN_ERROR`). Whatever is still open is ended first.
 */
export class FrameEvents {
  private readonly runId: string;
  private readonly questions = new Map<string, { request: ElicitationRequest; expiresAt?: string }>();
  private readonly approvals = new Map<string, ApprovalSubject>();
  private readonly streamedTools = new Set<string>();
  private readonly openMessages = new Map<string, "text" | "reasoning">();
  private readonly openSteps = new Set<number>();
  /** How the run ended, once a frame ended it. */
  ending: RunEnding | undefined;

  /** @param runId Our run, whose part ids the message ids are made unique with. */
  constructor(runId: string) {
    this.runId = runId;
  }

  /** The events of one frame; with `emit: false`, none, but the translator still learns from it. */
  translate(frame: Frame, emit = true): BaseEvent[] {
    const events = this.eventsOf(frame);
    if (emit) return events;
    // A park the reader already has is one this resume answers: it does not end the run.
    this.ending = undefined;
    return [];
  }

  /** Ends what is still open (a message, a step): a run's end may not leave them hanging. */
  closeOpen(): BaseEvent[] {
    const events: BaseEvent[] = [];
    for (const [messageId, kind] of this.openMessages) {
      if (kind === "text") events.push({ type: EventType.TEXT_MESSAGE_END, messageId } as BaseEvent);
      else
        events.push(
          { type: EventType.REASONING_MESSAGE_END, messageId } as BaseEvent,
          { type: EventType.REASONING_END, messageId } as BaseEvent,
        );
    }
    this.openMessages.clear();
    for (const step of this.openSteps) events.push(this.step(EventType.STEP_FINISHED, step));
    this.openSteps.clear();
    return events;
  }

  private messageId(partId: string): string {
    return `${this.runId}-${partId}`;
  }

  private step(type: EventType.STEP_STARTED | EventType.STEP_FINISHED, step: number): BaseEvent {
    return { type, stepName: `model-call-${step}` } as BaseEvent;
  }

  private toolCall(id: string, toolName: string, input: unknown): BaseEvent[] {
    if (this.streamedTools.has(id)) return [];
    this.streamedTools.add(id);
    return [
      { type: EventType.TOOL_CALL_START, toolCallId: id, toolCallName: toolName } as BaseEvent,
      { type: EventType.TOOL_CALL_ARGS, toolCallId: id, delta: JSON.stringify(input ?? {}) } as BaseEvent,
      { type: EventType.TOOL_CALL_END, toolCallId: id } as BaseEvent,
    ];
  }

  private toolResult(id: string, content: string): BaseEvent[] {
    // A question set's outcome is the resume that settled it; a call never streamed has no sequence.
    if (this.questions.has(id) || !this.streamedTools.has(id)) return [];
    return [
      {
        type: EventType.TOOL_CALL_RESULT,
        messageId: `${id}-result`,
        toolCallId: id,
        content,
        role: "tool",
      } as BaseEvent,
    ];
  }

  private eventsOf(frame: Frame): BaseEvent[] {
    switch (frame.kind) {
      case "run-start":
        return [];
      case "step-start":
        if (this.openSteps.has(frame.step)) return [];
        this.openSteps.add(frame.step);
        return [this.step(EventType.STEP_STARTED, frame.step)];
      case "step-finish":
        return this.openSteps.delete(frame.step) ? [this.step(EventType.STEP_FINISHED, frame.step)] : [];
      case "text-start":
      case "reasoning-start": {
        const messageId = this.messageId(frame.id);
        if (this.openMessages.has(messageId)) return [];
        if (frame.kind === "text-start") {
          this.openMessages.set(messageId, "text");
          return [{ type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" } as BaseEvent];
        }
        this.openMessages.set(messageId, "reasoning");
        return [
          { type: EventType.REASONING_START, messageId } as BaseEvent,
          { type: EventType.REASONING_MESSAGE_START, messageId, role: "reasoning" } as BaseEvent,
        ];
      }
      case "text-delta":
      case "reasoning-delta": {
        const messageId = this.messageId(frame.id);
        if (!this.openMessages.has(messageId) || frame.delta === "") return [];
        const type =
          frame.kind === "text-delta" ? EventType.TEXT_MESSAGE_CONTENT : EventType.REASONING_MESSAGE_CONTENT;
        return [{ type, messageId, delta: frame.delta } as BaseEvent];
      }
      case "text-end":
      case "reasoning-end": {
        const messageId = this.messageId(frame.id);
        if (!this.openMessages.delete(messageId)) return [];
        return frame.kind === "text-end"
          ? [{ type: EventType.TEXT_MESSAGE_END, messageId } as BaseEvent]
          : [
              { type: EventType.REASONING_MESSAGE_END, messageId } as BaseEvent,
              { type: EventType.REASONING_END, messageId } as BaseEvent,
            ];
      }
      case "tool-call":
        return this.toolCall(frame.id, frame.toolName, frame.input);
      case "approval-request":
        this.approvals.set(frame.id, {
          toolName: frame.toolName,
          input: frame.input,
          ...(frame.description !== undefined ? { description: frame.description } : {}),
          ...(frame.questions ? { questions: frame.questions } : {}),
          ...(frame.expiresAt !== undefined ? { expiresAt: frame.expiresAt } : {}),
        });
        return this.toolCall(frame.id, frame.toolName, frame.input);
      case "elicitation":
        this.questions.set(frame.id, {
          request: frame.request,
          ...(frame.expiresAt !== undefined ? { expiresAt: frame.expiresAt } : {}),
        });
        return [];
      case "tool-output":
        return this.toolResult(frame.id, resultContent(frame.output));
      case "tool-error":
        return this.toolResult(frame.id, resultContent({ error: frame.error }));
      case "tool-denied":
        return this.toolResult(
          frame.id,
          resultContent({ denied: true, ...(frame.reason !== undefined ? { reason: frame.reason } : {}) }),
        );
      case "tool-approved":
        // The resume that approved it is the client's own; the tool's result follows.
        return [];
      case "run-parked":
        this.ending = { kind: "interrupt", interrupts: frame.waitingFor.map((id) => this.interrupt(id)) };
        return [];
      case "run-finish":
        this.ending =
          frame.status === "completed"
            ? { kind: "success" }
            : frame.status === "cancelled"
              ? { kind: "cancelled", ...(frame.expired ? { expired: true as const } : {}) }
              : {
                  kind: "failed",
                  message: frame.error ?? "The run failed.",
                  ...(frame.code ? { code: frame.code } : {}),
                  ...(frame.errorId ? { errorId: frame.errorId } : {}),
                };
        return [];
    }
  }

  private interrupt(id: string): Interrupt {
    const asked = this.questions.get(id);
    if (asked) return questionsInterrupt(id, asked.request, asked.expiresAt);
    const approval = this.approvals.get(id);
    if (approval) return approvalInterrupt(id, approval);
    // A park on a call no frame described cannot happen; say what is known rather than fail.
    return { id, reason: APPROVAL_REASON, toolCallId: id };
  }
}
