import type { Store } from "../store/store";
import type { LiveFrame, RunFeeds } from "../stream/run-feeds";
import { followFrames } from "./follow-frames";

/** What a frame stream follows. */
export interface FrameStreamOptions {
  /** The store. */
  store: Store;
  /** This process's live frames. */
  feeds: RunFeeds;
  /** The run. */
  runId: string;
  /** The last sequence number the reader has; frames after it are sent. */
  after: number;
  /** Frames right after `after` the caller wrote itself (see `FollowOptions.known`). */
  known?: readonly LiveFrame[];
  /** Keep following across parks until the run finishes (`?follow=all`). */
  followAll: boolean;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Ends the stream when the server closes. */
  closing?: AbortSignal;
}

/** The headers of every event-stream response the server sends. */
export const EVENT_STREAM_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache, no-transform",
  connection: "keep-alive",
  "x-accel-buffering": "no",
};

/**
 * A response whose body `write` fills, ended when `write` returns or the reader goes away; the
 * signal `write` gets aborts then, or when `closing` (the server's) does.
 */
export function eventStreamResponse(
  write: (enqueue: (text: string) => void, signal: AbortSignal) => Promise<void>,
  options: { headers?: Record<string, string>; closing?: AbortSignal },
): Response {
  const abort = new AbortController();
  const encoder = new TextEncoder();
  const stop = () => abort.abort();
  options.closing?.addEventListener("abort", stop, { once: true });
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        await write((text) => controller.enqueue(encoder.encode(text)), abort.signal);
        controller.close();
      } catch (error) {
        if (!abort.signal.aborted) controller.error(error);
        else controller.close();
      } finally {
        // The closing signal lives as long as the server; a listener per finished stream would pile up.
        options.closing?.removeEventListener("abort", stop);
      }
    },
    cancel() {
      abort.abort();
    },
  });
  return new Response(body, { status: 200, headers: { ...EVENT_STREAM_HEADERS, ...options.headers } });
}

/**
 * An SSE response of a run's stored frames after `after`, each event `id: <seq>` and
 * `data: <frame>`, following live until the run parks or finishes (finishes, with `followAll`).
 * A model call's frames streamed before its checkpoint stores them have no `id:`, so a reader's
 * Last-Event-ID stays on the last stored frame it got (see docs/protocol.md, Frames).
 */
export function frameStreamResponse(options: FrameStreamOptions): Response {
  const { store, feeds, runId, followAll, after, known } = options;
  return eventStreamResponse(
    async (enqueue, signal) => {
      for await (const item of followFrames({
        store,
        feeds,
        runId,
        after,
        followAll,
        signal,
        ...(known ? { known } : {}),
      })) {
        if (item === "quiet") enqueue(": keep-alive\n\n");
        else if (item.seq === undefined) enqueue(`data: ${item.json}\n\n`);
        else enqueue(`id: ${item.seq}\ndata: ${item.json}\n\n`);
      }
    },
    {
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.closing ? { closing: options.closing } : {}),
    },
  );
}
