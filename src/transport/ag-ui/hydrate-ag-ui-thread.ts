import { type BaseEvent, EventType, type Interrupt, type Message } from "@ag-ui/client";
import { generateId, type UIMessage, type UIMessageChunk } from "ai";
import type { ElicitationOutcome } from "@/lib/prepick/core/question";
import { readMessage } from "@/lib/prepick/transport/replay-then-follow";
import {
  type AgUiFoldState,
  foldAgUiEvent,
  type InterruptDecision,
  initialAgUiFold,
  settleInterrupts,
} from "./fold-ag-ui-events";

/**
 * An interrupt set the person settled, kept beside the thread's messages: AG-UI messages hold no
 * trace of an interrupt (a question set is no tool call, an approval no tool result), so without
 * it a reload would show the reply but not the questions and answers, nor the decision, it followed.
 */
export interface SettledInterruptSet {
  /** The id of the thread's last message when the set was asked; `null` when it had none. */
  after: string | null;
  /** The assistant message the set was shown in, so a rebuilt message keeps its id. */
  messageId: string;
  /** The interrupts, as the run ended with them. */
  interrupts: Interrupt[];
  /** The person's decision per interrupt id. */
  decisions: Record<string, InterruptDecision>;
  /** The question set's outcome, when it was answered or skipped. */
  outcome?: ElicitationOutcome;
}

/** A thread rebuilt from its AG-UI messages: the AI SDK messages, and the fold of the last reply. */
export interface HydratedAgUiThread {
  /** The conversation as AI SDK messages. */
  messages: UIMessage[];
  /** The last assistant message's fold and chunks, so answering its interrupts resumes it. */
  last?: { fold: AgUiFoldState; chunks: UIMessageChunk[] };
}

function textOf(content: string | readonly { type: string; text?: string }[] | undefined): string {
  if (typeof content === "string") return content;
  return (content ?? []).map((part) => (part.type === "text" ? (part.text ?? "") : "")).join("");
}

/** The events a stream would have carried to build `message`. */
function eventsOf(message: Message): BaseEvent[] {
  const events: BaseEvent[] = [];
  const stream = (start: EventType, content: EventType, end: EventType, text: string, role: string) => {
    if (text === "") return;
    events.push({ type: start, messageId: message.id, role } as BaseEvent);
    events.push({ type: content, messageId: message.id, delta: text } as BaseEvent);
    events.push({ type: end, messageId: message.id } as BaseEvent);
  };
  if (message.role === "assistant") {
    const { TEXT_MESSAGE_START, TEXT_MESSAGE_CONTENT, TEXT_MESSAGE_END } = EventType;
    stream(TEXT_MESSAGE_START, TEXT_MESSAGE_CONTENT, TEXT_MESSAGE_END, textOf(message.content), "assistant");
    for (const call of message.toolCalls ?? []) {
      const toolCallId = call.id;
      events.push({
        type: EventType.TOOL_CALL_START,
        toolCallId,
        toolCallName: call.function.name,
      } as BaseEvent);
      if (call.function.arguments !== "")
        events.push({
          type: EventType.TOOL_CALL_ARGS,
          toolCallId,
          delta: call.function.arguments,
        } as BaseEvent);
      events.push({ type: EventType.TOOL_CALL_END, toolCallId } as BaseEvent);
    }
  } else if (message.role === "reasoning") {
    const { REASONING_MESSAGE_START, REASONING_MESSAGE_CONTENT, REASONING_MESSAGE_END } = EventType;
    stream(
      REASONING_MESSAGE_START,
      REASONING_MESSAGE_CONTENT,
      REASONING_MESSAGE_END,
      message.content,
      "reasoning",
    );
  } else if (message.role === "tool") {
    const { toolCallId, content } = message;
    events.push({
      type: EventType.TOOL_CALL_RESULT,
      messageId: message.id,
      toolCallId,
      content,
    } as BaseEvent);
  }
  return events;
}

/** An event to fold, or a settled interrupt set to show where it was asked. */
type Step = BaseEvent | { settled: SettledInterruptSet };

const isSettled = (step: Step): step is { settled: SettledInterruptSet } => !("type" in step);

/** The fold of a settled set, as the live stream made it: asked, decided, settled, run on. */
function foldSettled(fold: AgUiFoldState, set: SettledInterruptSet, chunks: UIMessageChunk[]): AgUiFoldState {
  const asked = foldAgUiEvent(fold, {
    type: EventType.RUN_FINISHED,
    outcome: { type: "interrupt", interrupts: set.interrupts },
  } as BaseEvent);
  chunks.push(...asked.chunks);
  const decided = { ...asked.state, decisions: set.decisions, outcome: set.outcome };
  const settled = settleInterrupts(decided);
  chunks.push(...settled.chunks);
  return settled.state;
}

/**
 * Rebuilds a conversation from AG-UI messages (the agent's last `MESSAGES_SNAPSHOT`, or what its
 * events added up to), the interrupt sets the person settled, and the interrupts its last run
 * ended with. Each user message stays one; the messages between two user messages become one
 * assistant message, folded exactly as the live stream folds, so a reloaded page shows what a
 * connected one did: a settled question set with its answers where it was asked, an approval
 * with its decision, a pending question still pending. A settled set whose message is no longer
 * in the thread (a snapshot replaced it) is not shown. System, developer and activity messages
 * are not shown. Open interrupts in a turn with no message of the agent before them come back in a
 * message of their own, with `openMessageId` (the live message's id) when the thread kept it.
 */
export async function hydrateAgUiThread(
  messages: readonly Message[],
  interrupts: readonly Interrupt[],
  settled: readonly SettledInterruptSet[] = [],
  openMessageId?: string,
): Promise<HydratedAgUiThread> {
  type Group = { id: string; steps: Step[] };
  const result: (UIMessage | Group)[] = [];
  let open: Group | undefined;
  const place = (after: string | null) => {
    for (const set of settled.filter((candidate) => candidate.after === after)) {
      if (!open) {
        open = { id: set.messageId, steps: [] };
        result.push(open);
      }
      // The message the set was shown in keeps the id it had on the live page.
      open.id = set.messageId;
      open.steps.push({ settled: set });
    }
  };
  place(null);
  for (const message of messages) {
    if (message.role === "user") {
      open = undefined;
      result.push({ id: message.id, role: "user", parts: [{ type: "text", text: textOf(message.content) }] });
      place(message.id);
      continue;
    }
    const events = eventsOf(message);
    if (events.length > 0) {
      if (!open) {
        open = { id: message.id, steps: [] };
        result.push(open);
      }
      open.steps.push(...events);
    }
    place(message.id);
  }
  if (interrupts.length > 0 && !open) {
    open = { id: openMessageId ?? generateId(), steps: [] };
    result.push(open);
  }
  let last: HydratedAgUiThread["last"];
  const built: UIMessage[] = [];
  for (const entry of result) {
    if ("role" in entry) {
      built.push(entry);
      continue;
    }
    const outcome = entry === open && interrupts.length > 0 ? { type: "interrupt", interrupts } : undefined;
    const steps: Step[] = [
      { type: EventType.RUN_STARTED } as BaseEvent,
      ...entry.steps,
      { type: EventType.RUN_FINISHED, ...(outcome ? { outcome } : {}) } as BaseEvent,
    ];
    let fold = initialAgUiFold(entry.id);
    const chunks: UIMessageChunk[] = [];
    for (const step of steps) {
      if (isSettled(step)) {
        fold = foldSettled(fold, step.settled, chunks);
        continue;
      }
      const folded = foldAgUiEvent(fold, step);
      fold = folded.state;
      chunks.push(...folded.chunks);
    }
    built.push(await readMessage(entry.id, chunks));
    if (entry === result.at(-1)) last = { fold, chunks };
  }
  return { messages: built, ...(last ? { last } : {}) };
}
