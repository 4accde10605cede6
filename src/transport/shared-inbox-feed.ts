"use client";

import type { InboxEvent, PendingCall } from "@/lib/prepick/core/inbox";
import { followInbox, type InboxFeedHandlers } from "./inbox-feed";
import type { ToolCallClient } from "./tool-call-client";

/** What the tabs of one inbox tell each other. */
type FeedMessage =
  | { type: "hello" }
  | { type: "event"; event: InboxEvent; fresh: boolean }
  | { type: "disconnect" };

/** The name the tabs following the same inbox share: one server, one set of headers (one actor). */
function feedName(client: ToolCallClient): string {
  return `prepick-inbox ${client.url("/agent/approvals/stream")} ${JSON.stringify(client.headers())}`;
}

/**
 * Follows the actor's inbox as {@link followInbox} does, with one connection for every tab and
 * hook of the browser that follows the same inbox, where each would otherwise hold its own. A
 * browser keeps at most six connections to a server over HTTP/1.1, for all its tabs together: a
 * feed per tab used them up by the fourth tab, whose requests then never left.
 *
 * The followers elect one leader with a Web Lock; it holds the feed and passes every event on
 * over a `BroadcastChannel`, and replays what waits to a follower that joins. When the leading tab
 * closes, the next one takes the lock and opens the feed afresh (its events replace every tab's
 * list). Without Web Locks or `BroadcastChannel`, or with a client's own `fetch`, it is
 * `followInbox`.
 */
export async function followSharedInbox(
  client: ToolCallClient,
  handlers: InboxFeedHandlers,
  signal: AbortSignal,
): Promise<void> {
  const locks = typeof navigator === "undefined" ? undefined : navigator.locks;
  if (!locks || typeof BroadcastChannel === "undefined" || client.hasOwnFetch) {
    return followInbox(client, handlers, signal);
  }
  const name = feedName(client);
  const channel = new BroadcastChannel(name);
  const post = (message: FeedMessage) => channel.postMessage(message);

  let leading = false;
  // The leader's view of what waits, to replay to a follower that joins.
  const waiting = new Map<string, PendingCall>();
  let collecting = false;
  let synced = false;
  let replayOwed = false;
  const replay = () => {
    for (const call of waiting.values())
      post({ type: "event", event: { kind: "waiting", call }, fresh: true });
    post({ type: "event", event: { kind: "synced" }, fresh: true });
  };

  channel.onmessage = ({ data }: MessageEvent<FeedMessage>) => {
    if (data.type === "hello") {
      if (!leading) return;
      if (synced) replay();
      else replayOwed = true;
    } else if (!leading) {
      if (data.type === "event") handlers.onEvent(data.event, data.fresh);
      else handlers.onDisconnect?.(new Error("The inbox feed is cut."));
    }
  };
  post({ type: "hello" });

  const lead = async () => {
    leading = true;
    await followInbox(
      client,
      {
        onEvent: (event, fresh) => {
          // A connection opened afresh sends the whole list again: it replaces what was known.
          if (fresh && !collecting) {
            waiting.clear();
            collecting = true;
            synced = false;
          }
          if (event.kind === "waiting") waiting.set(event.call.id, event.call);
          else if (event.kind === "settled") waiting.delete(event.id);
          handlers.onEvent(event, fresh);
          post({ type: "event", event, fresh });
          if (event.kind === "synced") {
            collecting = false;
            synced = true;
            // A follower that joined in the middle of a fresh list gets it whole.
            if (replayOwed) replay();
            replayOwed = false;
          }
        },
        onDisconnect: (error) => {
          handlers.onDisconnect?.(error);
          post({ type: "disconnect" });
        },
      },
      signal,
    );
  };
  try {
    await locks.request(name, { signal }, lead);
  } catch (error) {
    // The lock was still awaited when the follower stopped.
    if (!signal.aborted) throw error;
  } finally {
    channel.close();
  }
}
