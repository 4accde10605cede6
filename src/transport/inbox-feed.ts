import type { InboxEvent } from "@/lib/prepick/core/inbox";
import { serverSentEvents } from "./read-frames";
import type { ToolCallClient } from "./tool-call-client";

/** What {@link followInbox} tells its caller. */
export interface InboxFeedHandlers {
  /**
   * An event of the feed. `fresh` is true for the first events of a connection opened without
   * a `Last-Event-ID`, up to and with its `synced` (what waits now): the caller replaces what it
   * knew with them. Every later event is a change to apply.
   */
  onEvent: (event: InboxEvent, fresh: boolean) => void;
  /** The feed is cut and is being opened again (after `retryMs`). */
  onDisconnect?: (error: unknown) => void;
}

/** How long to wait before opening a cut feed again: doubling from half a second to ten. */
function retryDelay(attempt: number): number {
  return Math.min(10_000, 500 * 2 ** Math.min(attempt, 5));
}

/**
 * Follows the actor's inbox feed (`GET /agent/approvals/stream`) until `signal` aborts: every
 * event goes to `onEvent`, and a cut connection is opened again with the last event id seen, as
 * `EventSource` would, so nothing between the two connections is missed.
 */
export async function followInbox(
  client: ToolCallClient,
  handlers: InboxFeedHandlers,
  signal: AbortSignal,
): Promise<void> {
  let lastEventId: string | undefined;
  let attempt = 0;
  while (!signal.aborted) {
    let fresh = lastEventId === undefined;
    try {
      const response = await client.fetch("/agent/approvals/stream", {
        headers: {
          accept: "text/event-stream",
          ...(fresh ? {} : { "last-event-id": lastEventId as string }),
        },
        signal,
      });
      if (!response.ok || !response.body) throw new Error(`The inbox feed answered ${response.status}.`);
      const reader = serverSentEvents(response.body).getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        attempt = 0;
        if (value.id !== undefined) lastEventId = value.id;
        let event: InboxEvent;
        try {
          event = JSON.parse(value.data) as InboxEvent;
        } catch {
          continue;
        }
        // The server had nothing after our last id (its store was restored): it sends the list anew.
        if (event.kind === "reset") fresh = true;
        handlers.onEvent(event, fresh);
        if (event.kind === "synced") fresh = false;
      }
      throw new Error("The inbox feed ended.");
    } catch (error) {
      if (signal.aborted) return;
      handlers.onDisconnect?.(error);
      await new Promise((resolve) => setTimeout(resolve, retryDelay(attempt++)));
    }
  }
}
