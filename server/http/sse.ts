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

/** Every stream's queue: counted in bytes (the strategy holds no state, so one serves all). */
const QUEUE = new ByteLengthQueuingStrategy({ highWaterMark: QUEUE_BYTES });

const encoder = new TextEncoder();

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
 * One event stream's state: the source of its body, its writer's wait for room, and its end. A
 * class rather than closures, since a stream is made per request: its methods are shared, and it
 * listens to the server's closing signal itself (`handleEvent`).
 */
class EventStream implements UnderlyingDefaultSource<Uint8Array> {
  readonly abort = new AbortController();
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  /** Closed, errored or cancelled: the stream can be ended no more (trying would build an error). */
  private ended = false;
  /** Resolves the writer's wait for room. */
  private room: (() => void) | undefined;

  constructor(private readonly stallMs: number) {}

  start(controller: ReadableStreamDefaultController<Uint8Array>): void {
    this.controller = controller;
  }

  pull(): void {
    this.wakeWriter();
  }

  cancel(): void {
    this.ended = true;
    this.stop();
  }

  /** The server is closing. */
  handleEvent(): void {
    this.stop();
  }

  /** Aborts the writer's signal and wakes it, once. */
  stop(): void {
    if (this.abort.signal.aborted) return;
    this.abort.abort(STREAM_ENDED);
    this.wakeWriter();
  }

  /** Closes the stream, or errors it with `error`, unless it ended some other way already. */
  end(error?: unknown): void {
    if (this.ended) return;
    this.ended = true;
    try {
      if (error === undefined) this.controller.close();
      else this.controller.error(error);
    } catch {
      // Ended some other way after all.
    }
  }

  private wakeWriter(): void {
    this.room?.();
    this.room = undefined;
  }

  /** Writes text to the stream; waits while the client leaves it full. */
  async enqueue(text: string): Promise<void> {
    if (this.abort.signal.aborted) return;
    this.controller.enqueue(encoder.encode(text));
    if ((this.controller.desiredSize ?? 0) > 0) return;
    let stalled = false;
    const timer = setTimeout(() => {
      stalled = true;
      this.wakeWriter();
    }, this.stallMs);
    await new Promise<void>((resolve) => {
      this.room = resolve;
    });
    clearTimeout(timer);
    if (stalled && !this.abort.signal.aborted) {
      this.stop();
      this.end(new Error(`The client read nothing for ${this.stallMs} ms; its stream was cut.`));
    }
  }
}

/** Runs a stream's writer to its end, whichever way it ends, then lets go of the server's signal. */
async function writeStream(
  stream: EventStream,
  write: (enqueue: Enqueue, signal: AbortSignal) => Promise<void>,
  options: EventStreamOptions,
): Promise<void> {
  const { signal } = stream.abort;
  try {
    await write((text) => stream.enqueue(text), signal);
    stream.end();
  } catch (error) {
    // Stopped by the reader or the server closing: an end, not a failure.
    stream.end(signal.aborted ? undefined : error);
  } finally {
    stream.stop();
    // The closing signal lives as long as the server; a listener per finished stream would pile up.
    options.closing?.removeEventListener("abort", stream);
    options.onEnd?.();
  }
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
  const stream = new EventStream(options.stallMs ?? STALL_MS);
  options.closing?.addEventListener("abort", stream, { once: true });
  const body = new ReadableStream<Uint8Array>(stream, QUEUE);
  void writeStream(stream, write, options);
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
