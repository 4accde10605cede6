import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import type { SequencedFrame } from "@/lib/prepick/core/frames";
import { foldFrames } from "./fold-frames";
import type { ThreadResponse } from "./tool-call-client";

async function lastMessage(chunks: readonly UIMessageChunk[], id: string): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let message: UIMessage = { id, role: "assistant", parts: [] };
  // Errors of a failed run are part of its story, not a reason to drop the message.
  for await (const snapshot of readUIMessageStream({ stream, message, onError: () => {} })) {
    message = snapshot;
  }
  return message;
}

/**
 * Builds one assistant message from a run's stored frames with the same fold as the live stream,
 * so a reloaded page shows exactly what a connected one did: a pending question still pending,
 * a settled one settled.
 */
export async function hydrateRun(messageId: string, frames: readonly SequencedFrame[]): Promise<UIMessage> {
  return lastMessage(foldFrames(frames).chunks, messageId);
}

/** Builds the AI SDK messages of a stored thread (`GET /agent/threads/:threadId`). */
export async function hydrateThread(thread: ThreadResponse): Promise<UIMessage[]> {
  const messages: UIMessage[] = [];
  for (const message of thread.messages) {
    if (message.role === "user") {
      messages.push({ id: message.id, role: "user", parts: message.parts });
    } else {
      messages.push(await hydrateRun(message.id, message.frames));
    }
  }
  return messages;
}
