import { type BaseEvent, EventType, type Interrupt, type Message } from "@ag-ui/client";
import { generateId, readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { type AgUiFoldState, foldAgUiEvent, initialAgUiFold } from "./fold-ag-ui-events";

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

async function messageOf(id: string, chunks: readonly UIMessageChunk[]): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let message: UIMessage = { id, role: "assistant", parts: [] };
  for await (const snapshot of readUIMessageStream({ stream, message, onError: () => {} }))
    message = snapshot;
  return message;
}

/**
 * Rebuilds a conversation from AG-UI messages (the agent's last `MESSAGES_SNAPSHOT`, or what its
 * events added up to) and the interrupts its last run ended with. Each user message stays one; the
 * messages between two user messages become one assistant message, folded exactly as the live
 * stream folds, so a reloaded page shows what a connected one did, a pending question still pending.
 * System, developer and activity messages are not shown.
 */
export async function hydrateAgUiThread(
  messages: readonly Message[],
  interrupts: readonly Interrupt[],
): Promise<HydratedAgUiThread> {
  type Group = { id: string; events: BaseEvent[] };
  const result: (UIMessage | Group)[] = [];
  let open: Group | undefined;
  for (const message of messages) {
    if (message.role === "user") {
      open = undefined;
      result.push({ id: message.id, role: "user", parts: [{ type: "text", text: textOf(message.content) }] });
      continue;
    }
    const events = eventsOf(message);
    if (events.length === 0) continue;
    if (!open) {
      open = { id: message.id, events: [] };
      result.push(open);
    }
    open.events.push(...events);
  }
  if (interrupts.length > 0 && !open) {
    open = { id: generateId(), events: [] };
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
    const events: BaseEvent[] = [
      { type: EventType.RUN_STARTED } as BaseEvent,
      ...entry.events,
      { type: EventType.RUN_FINISHED, ...(outcome ? { outcome } : {}) } as BaseEvent,
    ];
    let fold = initialAgUiFold(entry.id);
    const chunks: UIMessageChunk[] = [];
    for (const event of events) {
      const folded = foldAgUiEvent(fold, event);
      fold = folded.state;
      chunks.push(...folded.chunks);
    }
    built.push(await messageOf(entry.id, chunks));
    if (entry === result.at(-1)) last = { fold, chunks };
  }
  return { messages: built, ...(last ? { last } : {}) };
}
