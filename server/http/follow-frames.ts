import { isDeepStrictEqual } from "node:util";
import type { Frame } from "prepick/core";
import type { Store } from "../store/store";
import type { LiveFrame, RunFeeds } from "../stream/run-feeds";

// Followers poll this often even without a notification, so a lost NOTIFY only delays them.
const POLL_MS = 1_000;
// How many stored frames one read takes.
const READ_LIMIT = 500;
// How long a follower may stay quiet before it is told so, to keep proxies from closing the stream.
const QUIET_MS = 15_000;

/** What a follower follows. */
export interface FollowOptions {
  /** The store. */
  store: Store;
  /** This process's live frames. */
  feeds: RunFeeds;
  /** The run. */
  runId: string;
  /** The last sequence number the reader has; frames after it are read. */
  after: number;
  /**
   * Frames the caller wrote itself and the reader has not seen, starting right after `after`
   * (the chat route's `run-start`): sent first, without reading the stream's tail, since the run
   * that just started has not ended.
   */
  known?: readonly LiveFrame[];
  /** Keep following across parks until the run finishes (`?follow=all`). */
  followAll: boolean;
  /** Stops following. */
  signal: AbortSignal;
}

function ends(frame: Frame, followAll: boolean): boolean {
  return frame.kind === "run-finish" || (!followAll && frame.kind === "run-parked");
}

async function readStored(store: Store, runId: string, after: number): Promise<LiveFrame[]> {
  const rows = await store.frames.afterAsJson(runId, after, READ_LIMIT);
  return rows.map(({ seq, json }) => ({ seq, json, frame: JSON.parse(json) as Frame }));
}

/** Whether a stored frame is the one streamed before it was stored. */
function same(stored: LiveFrame, streamed: LiveFrame): boolean {
  return stored.json === streamed.json || isDeepStrictEqual(stored.frame, JSON.parse(streamed.json));
}

/**
 * A run's frames after `after`, then live ones as they come, until the run parks (the run's
 * latest park: one the run has moved on from is history) or finishes, or `signal` aborts. Yields
 * `"quiet"` after a long wait with nothing new, so a stream can keep its connection alive. A
 * finished run's frames end once those after `after` are given, even when there are none. Every
 * stream of a run's frames, whatever its encoding, follows with this.
 *
 * Stored frames come from this process's memory when it wrote them, else from the store. The
 * frames of a model call running in this process come as they stream, without a sequence number
 * (`seq` undefined); when the call's checkpoint stores them, they are not sent again, and the
 * frames after them come with their numbers. Should the stored frames not be the ones streamed (a
 * process that stalled past its lease, whose run another process took over and called the model
 * again), the follower ends: the reader resumes from the last number it has, dropping the frames
 * it holds without one.
 */
export async function* followFrames(options: FollowOptions): AsyncGenerator<LiveFrame | "quiet"> {
  const { store, feeds, runId, followAll, signal } = options;
  // Before any wait, so nothing this process writes from here on is missed.
  const feed = feeds.subscribe(runId);
  try {
    let after = options.after;
    let check = true;
    if (options.known && options.known.length > 0) {
      for (const known of options.known) {
        yield known;
        after = known.seq ?? after;
      }
      check = false;
    } else {
      const tail = await store.frames.tail(runId);
      // An ended run has no more frames: a reader that has them all gets nothing, and is done.
      if (tail.ended && after >= tail.lastSeq) return;
      // No reader holds a stored frame not yet written: past the last one, it reads on from
      // there, so the run's last frame, still to come, ends the following.
      after = Math.min(after, tail.lastSeq);
    }
    // The unstored frames sent so far, and the stored frame they follow.
    const streamed: LiveFrame[] = [];
    let quietSince = Date.now();
    while (!signal.aborted) {
      const waiting = feed.wait(POLL_MS, signal);
      let stored = feed.storedAfter(after);
      if (stored === undefined || (stored.length === 0 && check))
        stored = await readStored(store, runId, after);
      check = false;
      for (const [index, frame] of stored.entries()) {
        if (frame.seq === undefined) continue;
        if (streamed.length > 0) {
          const echo = streamed.shift() as LiveFrame;
          if (!same(frame, echo)) return;
          after = frame.seq;
          continue;
        }
        yield frame;
        after = frame.seq;
        // A park with frames stored after it is history (the run was answered since): a replay
        // from before it goes on, and only the run's latest park ends the response.
        const latest = index === stored.length - 1 && stored.length < READ_LIMIT;
        if (ends(frame.frame, followAll) && (frame.frame.kind === "run-finish" || latest)) return;
      }
      if (stored.length > 0) {
        quietSince = Date.now();
        // Read on at once: memory or a read at its limit may hold more.
        check = stored.length >= READ_LIMIT;
        continue;
      }
      const provisional = feed.provisional();
      if (provisional && provisional.after === after && provisional.frames.length > streamed.length) {
        for (const frame of provisional.frames.slice(streamed.length)) {
          streamed.push(frame);
          yield frame;
        }
        quietSince = Date.now();
      }
      if (Date.now() - quietSince > QUIET_MS) {
        yield "quiet";
        quietSince = Date.now();
      }
      const wake = await waiting;
      if (wake !== "written") check = true;
    }
  } finally {
    feed.close();
  }
}
