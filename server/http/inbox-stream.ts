import type { InboxEvent } from "prepick/core";
import type { Store } from "../store/store";
import type { FrameHub } from "../stream/frame-hub";
import { eventStreamResponse } from "./sse";

/** How often an inbox feed reads the store without a notification, unless told otherwise. */
export const DEFAULT_INBOX_POLL_MS = 10_000;
// How many rows one read takes: the next read waits until the client has taken them.
const READ_LIMIT = 100;
// A comment line this often keeps proxies from closing an idle feed.
const KEEP_ALIVE_MS = 15_000;

/** What an inbox feed follows. */
export interface InboxStreamOptions {
  /** The store. */
  store: Store;
  /** Wakes the feed when the actor's inbox changes (a hub on `INBOX_CHANNEL`). */
  hub: FrameHub;
  /** Whose inbox. */
  actorId: string;
  /** The inbox version the reader has (`Last-Event-ID`); undefined for a fresh reader. */
  after: number | undefined;
  /** Ends the feed when the server closes. */
  closing?: AbortSignal;
  /** Called once when the feed has ended, however it ended. */
  onEnd?: () => void;
  /**
   * How often the feed reads the store without a notification, in ms (default 10 000). The feed
   * follows the store's notifications; this poll only bounds the delay of one that was lost (a
   * dropped connection to PostgreSQL), and is far slower than a notification on purpose.
   */
  pollMs?: number;
}

/**
 * The actor's inbox as an SSE response. A fresh reader first gets every call waiting now, one
 * `waiting` event each, then `synced` with the actor's inbox version as its id; a reader that
 * sends `Last-Event-ID` gets the changes after that version instead, then `synced`. After it,
 * each change as it commits, in any process: `waiting` or `settled`, its id the change's version.
 */
export function inboxStreamResponse(options: InboxStreamOptions): Response {
  const { store, hub, actorId } = options;
  return eventStreamResponse(
    async (enqueue, signal) => {
      const send = (event: InboxEvent, id?: number) =>
        enqueue(`${id === undefined ? "" : `id: ${id}\n`}data: ${JSON.stringify(event)}\n\n`);
      let after = options.after;
      // A version past the actor's latest was never sent by this store (a restore, another store):
      // changes after it would never come, so the reader gets what waits now instead.
      if (after !== undefined && after > (await store.pendingCalls.head(actorId))) {
        after = undefined;
        await send({ kind: "reset" });
      }
      if (after === undefined) {
        // The snapshot's events carry no id: a reader cut off in it starts afresh.
        const head = await store.pendingCalls.head(actorId);
        for (let from = 0; from < head; ) {
          const page = (await store.pendingCalls.page(actorId, from, READ_LIMIT)).filter(
            ({ version }) => version <= head,
          );
          for (const { call } of page) await send({ kind: "waiting", call });
          const last = page.at(-1)?.version;
          if (last === undefined || page.length < READ_LIMIT) break;
          from = last;
        }
        after = head;
      }
      let synced = false;
      let quietSince = Date.now();
      while (!signal.aborted) {
        const waiting = hub.wait(actorId, options.pollMs ?? DEFAULT_INBOX_POLL_MS, signal);
        const changes = await store.pendingCalls.changes(actorId, after, READ_LIMIT);
        for (const { version, event } of changes) {
          await send(event, version);
          after = version;
        }
        if (changes.length === READ_LIMIT) continue;
        if (!synced) {
          await send({ kind: "synced" }, after);
          synced = true;
        }
        if (changes.length > 0) quietSince = Date.now();
        if (Date.now() - quietSince > KEEP_ALIVE_MS) {
          await enqueue(": keep-alive\n\n");
          quietSince = Date.now();
        }
        await waiting;
      }
    },
    {
      ...(options.closing ? { closing: options.closing } : {}),
      ...(options.onEnd ? { onEnd: options.onEnd } : {}),
    },
  );
}
