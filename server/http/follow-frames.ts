import type { Frame, SequencedFrame } from "prepick/core";
import type { Store } from "../store/store";
import type { FrameHub } from "../stream/frame-hub";

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
  /** Wakes the follower when frames arrive. */
  hub: FrameHub;
  /** The run. */
  runId: string;
  /** The last sequence number the reader has; frames after it are read. */
  after: number;
  /** Keep following across parks until the run finishes (`?follow=all`). */
  followAll: boolean;
  /** Stops following. */
  signal: AbortSignal;
}

function ends(frame: Frame, followAll: boolean): boolean {
  return frame.kind === "run-finish" || (!followAll && frame.kind === "run-parked");
}

/**
 * A run's stored frames after `after`, then live ones as they are written, until the run parks
 * (the run's latest park: one the run has moved on from is history) or finishes, or `signal`
 * aborts. Yields `"quiet"` after a long wait with nothing new, so a stream can keep its
 * connection alive. A finished run's frames end once those after `after` are given, even when
 * there are none. Every stream of a run's frames, whatever its encoding, follows with this.
 */
export async function* followFrames(options: FollowOptions): AsyncGenerator<SequencedFrame | "quiet"> {
  const { store, hub, runId, followAll, signal } = options;
  let after = options.after;
  const tail = await store.frames.tail(runId);
  // An ended run has no more frames: a reader that has them all gets nothing, and is done.
  if (tail.ended && after >= tail.lastSeq) return;
  // No reader holds a frame not yet written: past the last one, it reads on from there, so the
  // run's last frame, still to come, ends the following.
  after = Math.min(after, tail.lastSeq);
  let quietSince = Date.now();
  while (!signal.aborted) {
    const waiting = hub.wait(runId, POLL_MS, signal);
    const frames = await store.frames.after(runId, after, READ_LIMIT);
    for (const [index, sequenced] of frames.entries()) {
      yield sequenced;
      after = sequenced.seq;
      // A park with frames stored after it is history (the run was answered since): a replay
      // from before it goes on, and only the run's latest park ends the response.
      const latest = index === frames.length - 1 && frames.length < READ_LIMIT;
      const { frame } = sequenced;
      if (ends(frame, followAll) && (frame.kind === "run-finish" || latest)) return;
    }
    if (frames.length > 0) {
      quietSince = Date.now();
      // A read may have stopped at its limit: read on.
      if (frames.length === READ_LIMIT) continue;
    }
    if (Date.now() - quietSince > QUIET_MS) {
      yield "quiet";
      quietSince = Date.now();
    }
    await waiting;
  }
}
