import { isDeepStrictEqual } from "node:util";
import type { Frame } from "prepick/core";
import type { TurnContext } from "./turn-context";

/** How long a buffered frame may wait for company before it is written, in ms. */
export const DELTA_FLUSH_MS = 20;

/** Streams one model call's frames: `emit` each as it comes, `flush` before the call's checkpoint. */
export interface StepEmitter {
  /** Streams a frame; starts and deltas are buffered briefly and written with what follows them. */
  emit: (frame: Frame) => Promise<void>;
  /** Writes whatever is buffered; rethrows a failed timed write. */
  flush: () => Promise<void>;
}

// Frames that open or continue a part: written with whatever ends the part, or on the timer.
const BUFFERED: ReadonlySet<Frame["kind"]> = new Set([
  "step-start",
  "text-start",
  "text-delta",
  "reasoning-start",
  "reasoning-delta",
]);

/**
 * The frame emitter for model call `step`. A process that died during that call left the frames
 * it had streamed, but no checkpoint, so the call is made again; the frames the new call repeats
 * exactly are not stored twice, and a reader resuming from its last sequence number sees the
 * step once. A model that answers differently the second time (a real model may) gets its new
 * frames appended after the old ones: the stream never loses a frame a reader may have seen.
 *
 * The step's start, and text and reasoning parts' starts and deltas, are buffered and written in
 * one statement with the next other frame (a part's end), at {@link StepEmitter.flush}, or after
 * {@link DELTA_FLUSH_MS} at the latest, so a long reply costs a few writes rather than one per
 * delta and still streams live.
 */
export async function stepEmitter(context: TurnContext, step: number): Promise<StepEmitter> {
  // Only a process that died during this call left frames of it; when this replay recorded a
  // checkpoint itself, no earlier attempt can have reached the call.
  const earlier = context.journal.recordedHere
    ? []
    : await context.store.unfinishedStepFrames(context.run.id, step);
  let matched = 0;
  let diverged = false;
  let buffered: Frame[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Writes run one after another, so frames keep their order whoever triggers the write.
  let writing: Promise<void> = Promise.resolve();
  let failure: unknown;

  const write = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const batch = buffered;
    buffered = [];
    if (batch.length > 0) {
      writing = writing.then(() => context.emit(batch));
      writing.catch((error) => {
        failure ??= error;
      });
    }
    return writing;
  };

  const flush = async (): Promise<void> => {
    await write();
    if (failure !== undefined) throw failure;
  };

  const emit = async (frame: Frame): Promise<void> => {
    if (failure !== undefined) throw failure;
    if (!diverged && matched < earlier.length) {
      if (isDeepStrictEqual(earlier[matched], frame)) {
        matched += 1;
        return;
      }
      diverged = true;
    }
    buffered.push(frame);
    if (!BUFFERED.has(frame.kind)) return flush();
    timer ??= setTimeout(() => void write(), DELTA_FLUSH_MS);
  };

  return { emit, flush };
}
