import type { Frame } from "prepick/core";
import type { TurnContext } from "./turn-context";

/** How long a streamed frame may wait for company before followers get it, in ms. */
export const DELTA_FLUSH_MS = 20;

/** One model call's frames: `emit` each as it comes; `end` hands them to the call's checkpoint. */
export interface StepEmitter {
  /** Keeps a frame for the call's checkpoint and streams it to this process's followers. */
  emit: (frame: Frame) => void;
  /** The call ended: stops streaming and hands over every frame, for the checkpoint to store. */
  end: () => Frame[];
  /**
   * The call failed and the run ends with it: stores what it streamed, as the run's last frames
   * before its failure, so a reader keeps what it saw.
   */
  store: () => Promise<void>;
  /** The call was cut short and will be made again: what it streamed is dropped, never stored. */
  drop: () => void;
}

/**
 * The frame emitter of one model call. Its frames are stored once, with the call's checkpoint,
 * when the call ends (one write per call, however long the reply). Until then they stream to
 * this process's followers from memory, without sequence numbers (see `RunFeeds.provisional`):
 * the call's first frame (`step-start`) the moment it is emitted, so a run's next frame after a
 * settlement or a tool waits for no commit, then a batch at most every {@link DELTA_FLUSH_MS}.
 */
export function stepEmitter(context: TurnContext): StepEmitter {
  const after = context.journal.lastSeq;
  const frames: Frame[] = [];
  let streamed = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const stream = () => {
    timer = undefined;
    context.live.provisional(after, frames.slice(streamed));
    streamed = frames.length;
  };
  const stop = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
  };

  return {
    emit(frame) {
      frames.push(frame);
      if (frames.length === 1) stream();
      else timer ??= setTimeout(stream, DELTA_FLUSH_MS);
    },
    end() {
      stop();
      return frames;
    },
    async store() {
      stop();
      await context.emit(frames);
    },
    drop() {
      stop();
      context.live.abandon();
    },
  };
}
