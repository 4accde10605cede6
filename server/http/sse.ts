import type { Store } from "../store/store";
import type { LiveFrame, RunFeeds } from "../stream/run-feeds";
import { followFrames } from "./follow-frames";
import { STALL_MS } from "./json-stream";

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
 * The reason every ended stream's signal aborts with: made once, where `abort()` without a reason
 * would build a `DOMException` (and its stack) for each stream that ends.
 */
const STREAM_ENDED = Object.freeze({ reason: "The event stream ended." });

/** How many bytes a stream holds unread before its writer waits for the client to take them. */
const QUEUE_BYTES = 64 * 1024;

/** Writes an event stream's text; resolves when the stream has room for more (backpressure). */
export type Enqueue = (text: string) => Promise<void>;

/** How an event-stream response is made. */
export interface EventStreamOptions {
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Ends the stream when the server closes. */
  closing?: AbortSignal;
  /** How long the client may leave the stream full before it is cut, in ms (default {@link STALL_MS}). */
  stallMs?: number;
  /** Called once when the stream has ended, however it ended. */
  onEnd?: () => void;
}

/**
 * A response whose body `write` fills, ended when `write` returns or the reader goes away; the
 * signal `write` gets aborts then, or when `closing` (the server's) does. Written as the client
 * reads: once about 64 KiB wait unread, `enqueue` waits until the client takes some (the Node
 * server reads the body only as the socket drains), so a reader that does not read holds no more
 * than that, and no work is done for it; one that leaves it full for `stallMs` is cut.
 */
export function eventStreamResponse(
  write: (enqueue: Enqueue, signal: AbortSignal) => Promise<void>,
  options: EventStreamOptions,
): Response {
  const abort = new AbortController();
  const encoder = new TextEncoder();
  // Closed, errored or cancelled: the stream can be ended no more (trying would build an error).
  let ended = false;
  const stallMs = options.stallMs ?? STALL_MS;
  let room: (() => void) | undefined;
  const wakeWriter = () => {
    room?.();
    room = undefined;
  };
  const stop = () => abort.abort(STREAM_ENDED);
  abort.signal.addEventListener("abort", wakeWriter, { once: true });
  options.closing?.addEventListener("abort", stop, { once: true });
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>(
    {
      start(started) {
        controller = started;
      },
      pull: wakeWriter,
      cancel: () => {
        ended = true;
        stop();
      },
    },
    new ByteLengthQueuingStrategy({ highWaterMark: QUEUE_BYTES }),
  );
  const enqueue: Enqueue = async (text) => {
    if (abort.signal.aborted) return;
    controller.enqueue(encoder.encode(text));
    if ((controller.desiredSize ?? 0) > 0) return;
    let stalled = false;
    const timer = setTimeout(() => {
      stalled = true;
      wakeWriter();
    }, stallMs);
    await new Promise<void>((resolve) => {
      room = resolve;
    });
    clearTimeout(timer);
    if (stalled && !abort.signal.aborted) {
      stop();
      end(new Error(`The client read nothing for ${stallMs} ms; its stream was cut.`));
    }
  };
  // A stream the client cancelled, or that was cut, can be neither closed nor errored again.
  function end(error?: unknown): void {
    if (ended) return;
    ended = true;
    try {
      if (error === undefined) controller.close();
      else controller.error(error);
    } catch {
      // Ended some other way after all.
    }
  }
  void (async () => {
    try {
      await write(enqueue, abort.signal);
      end();
    } catch (error) {
      // Stopped by the reader or the server closing: an end, not a failure.
      end(abort.signal.aborted ? undefined : error);
    } finally {
      stop();
      // The closing signal lives as long as the server; a listener per finished stream would pile up.
      options.closing?.removeEventListener("abort", stop);
      options.onEnd?.();
    }
  })();
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
        if (item === "quiet") await enqueue(": keep-alive\n\n");
        else if (item.seq === undefined) await enqueue(`data: ${item.json}\n\n`);
        else await enqueue(`id: ${item.seq}\ndata: ${item.json}\n\n`);
      }
    },
    {
      ...(options.headers ? { headers: options.headers } : {}),
      ...(options.closing ? { closing: options.closing } : {}),
    },
  );
}
