import type { Frame } from "prepick/core";
import type { Store } from "../store/store";
import type { FrameHub } from "../stream/frame-hub";

// Followers poll this often even without a notification, so a lost NOTIFY only delays them.
const POLL_MS = 1_000;
// How many stored frames one read takes.
const READ_LIMIT = 500;
// A comment line this often keeps proxies from closing an idle stream of a parked run.
const KEEP_ALIVE_MS = 15_000;

/** What a frame stream follows. */
export interface FrameStreamOptions {
  /** The store. */
  store: Store;
  /** Wakes the stream when frames arrive. */
  hub: FrameHub;
  /** The run. */
  runId: string;
  /** The last sequence number the reader has; frames after it are sent. */
  after: number;
  /** Keep following across parks until the run finishes (`?follow=all`). */
  followAll: boolean;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** Ends the stream when the server closes. */
  closing?: AbortSignal;
}

function ends(frame: Frame, followAll: boolean): boolean {
  return frame.kind === "run-finish" || (!followAll && frame.kind === "run-parked");
}

/**
 * An SSE response of a run's stored frames after `after`, each event `id: <seq>` and
 * `data: <frame>`, following live until the run parks or finishes (finishes, with `followAll`).
 * A finished run's response ends once its frames after `after` are sent, even when there are none.
 */
export function frameStreamResponse(options: FrameStreamOptions): Response {
  const { store, hub, runId, followAll } = options;
  const abort = new AbortController();
  const encoder = new TextEncoder();
  const stop = () => abort.abort();
  options.closing?.addEventListener("abort", stop, { once: true });
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      let after = options.after;
      let quietSince = Date.now();
      try {
        const tail = await store.frames.tail(runId);
        // An ended run has no more frames: a reader that has them all gets an empty, ended stream.
        if (tail.ended && after >= tail.lastSeq) {
          controller.close();
          return;
        }
        // No reader holds a frame not yet written: past the last one, it reads on from there, so
        // the run's last frame, still to come, ends the stream.
        after = Math.min(after, tail.lastSeq);
        while (!abort.signal.aborted) {
          const waiting = hub.wait(runId, POLL_MS, abort.signal);
          const frames = await store.frames.after(runId, after, READ_LIMIT);
          for (const [index, { seq, frame }] of frames.entries()) {
            controller.enqueue(encoder.encode(`id: ${seq}\ndata: ${JSON.stringify(frame)}\n\n`));
            after = seq;
            // A park with frames stored after it is history (the run was answered since): a replay
            // from before it goes on, and only the run's latest park ends the response.
            const latest = index === frames.length - 1 && frames.length < READ_LIMIT;
            if (ends(frame, followAll) && (frame.kind === "run-finish" || latest)) {
              controller.close();
              return;
            }
          }
          if (frames.length > 0) {
            quietSince = Date.now();
            // A read may have stopped at its limit: read on.
            if (frames.length === READ_LIMIT) continue;
          }
          if (Date.now() - quietSince > KEEP_ALIVE_MS) {
            controller.enqueue(encoder.encode(": keep-alive\n\n"));
            quietSince = Date.now();
          }
          await waiting;
        }
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
  return new Response(body, {
    status: 200,
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
      ...options.headers,
    },
  });
}
