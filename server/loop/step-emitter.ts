import { isDeepStrictEqual } from "node:util";
import type { Frame } from "prepick/core";
import type { TurnContext } from "./turn-context";

/** How long a streamed frame may wait for company before it is written, in ms. */
export const DELTA_FLUSH_MS = 20;

/** Streams one model call's frames: `emit` each as it comes, `drain` what is left for the call's checkpoint. */
export interface StepEmitter {
  /** Streams a frame: buffered, and written with the frames that follow it within {@link DELTA_FLUSH_MS}. */
  emit: (frame: Frame) => Promise<void>;
  /** Writes whatever is buffered; rethrows a failed timed write. */
  flush: () => Promise<void>;
  /**
   * Waits for the writes in flight and hands over the frames still buffered, unwritten: the
   * call's checkpoint records them in its own statement. Rethrows a failed timed write.
   */
  drain: () => Promise<Frame[]>;
}

/**
 * The frame emitter for model call `step`. A process that died during that call left the frames
 * it had streamed, but no checkpoint, so the call is made again; the frames the new call repeats
 * exactly are not stored twice, and a reader resuming from its last sequence number sees the
 * step once. A model that answers differently the second time (a real model may) gets its new
 * frames appended after the old ones: the stream never loses a frame a reader may have seen.
 *
 * Frames are buffered and written in one statement after {@link DELTA_FLUSH_MS} at the latest, so
 * a long reply costs a few writes rather than one per delta and still streams live; a call that
 * answers within that time writes its frames with its checkpoint, in one statement.
 */
export async function stepEmitter(context: TurnContext, step: number): Promise<StepEmitter> {
  // Only a process that died during this call left frames of it; when this replay recorded a
  // checkpoint itself, no earlier attempt can have reached the call.
  const earlier = context.journal.recordedHere
    ? []
    : await context.store.frames.unfinishedStep(context.run.id, step);
  let matched = 0;
  let diverged = false;
  let buffered: Frame[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Writes run one after another, so frames keep their order whoever triggers the write.
  let writing: Promise<void> = Promise.resolve();
  let failure: unknown;

  const stopTimer = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };

  const write = (): Promise<void> => {
    stopTimer();
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

  const drain = async (): Promise<Frame[]> => {
    stopTimer();
    await writing.catch(() => undefined);
    if (failure !== undefined) throw failure;
    const rest = buffered;
    buffered = [];
    return rest;
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
    timer ??= setTimeout(() => void write(), DELTA_FLUSH_MS);
  };

  return { emit, flush, drain };
}
