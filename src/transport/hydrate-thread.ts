import type { UIMessage } from "ai";
import type { SequencedFrame } from "@/lib/prepick/core/frames";
import { foldFrames } from "./fold-frames";
import { readMessage } from "./replay-then-follow";
import type { ThreadResponse } from "./tool-call-client";

/**
 * Builds one assistant message from a run's stored frames with the same fold as the live stream,
 * so a reloaded page shows exactly what a connected one did: a pending question still pending,
 * a settled one settled.
 */
export async function hydrateRun(messageId: string, frames: readonly SequencedFrame[]): Promise<UIMessage> {
  return readMessage(messageId, foldFrames(frames).chunks);
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
