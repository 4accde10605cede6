import { createParser } from "eventsource-parser";
import type { InboxEvent } from "prepick/core";

/** One event of the inbox feed as a reader saw it: its id (if any), the event, when it arrived. */
export interface SeenInboxEvent {
  /** The SSE id (the inbox version), or undefined for a snapshot event. */
  id: string | undefined;
  /** The event. */
  event: InboxEvent;
  /** `performance.now()` when it was parsed. */
  at: number;
}

/** An open inbox feed: every event so far, a wait for one, and a close. */
export interface InboxFeed {
  /** Every event read so far, in order. */
  readonly events: SeenInboxEvent[];
  /** Resolves with the first event (from `from` on) that `match` accepts; fails after `timeoutMs`. */
  next(match: (event: InboxEvent) => boolean, timeoutMs?: number, from?: number): Promise<SeenInboxEvent>;
  /** Stops reading. */
  close(): Promise<void>;
}

/**
 * Opens `GET /agent/approvals/stream` at `baseUrl` as `actorId` (resuming after `lastEventId` if
 * given) and reads it in the background.
 */
export async function openInboxFeed(
  baseUrl: string,
  actorId: string,
  lastEventId?: string,
): Promise<InboxFeed> {
  const abort = new AbortController();
  const response = await fetch(new URL("/agent/approvals/stream", baseUrl), {
    headers: {
      "x-actor-id": actorId,
      accept: "text/event-stream",
      ...(lastEventId !== undefined ? { "last-event-id": lastEventId } : {}),
    },
    signal: abort.signal,
  });
  if (response.status !== 200 || !response.body) {
    throw new Error(`the inbox feed answered ${response.status}: ${await response.text()}`);
  }
  const events: SeenInboxEvent[] = [];
  const listeners = new Set<() => void>();
  const parser = createParser({
    onEvent(message) {
      events.push({ id: message.id, event: JSON.parse(message.data) as InboxEvent, at: performance.now() });
      for (const listener of [...listeners]) listener();
    },
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  const reading = (async () => {
    try {
      for (;;) {
        const chunk = await reader.read();
        if (chunk.done) return;
        parser.feed(chunk.value);
      }
    } catch {
      // Closed by `close()`.
    }
  })();
  return {
    events,
    next(match, timeoutMs = 15_000, from = 0) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = events.slice(from).find(({ event }) => match(event));
          if (!found) return;
          clearTimeout(timer);
          listeners.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(new Error(`No matching inbox event in ${timeoutMs} ms; saw ${JSON.stringify(events)}`));
        }, timeoutMs);
        listeners.add(check);
        check();
      });
    },
    async close() {
      abort.abort();
      await reading;
    },
  };
}
