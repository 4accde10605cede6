import type { Frame } from "prepick/core";
import type { TurnContext } from "./turn-context";

/** How long a streamed frame may wait for company before followers get it, in ms. */
export const DELTA_FLUSH_MS = 20;

/** One model call's frames: `emit` each as it comes; `end` hands them to the call's checkpoint. */
export interface StepEmitter {
  /** Keeps a frame for the call's checkpoint and streams it to this process's followers. */
  emit(frame: Frame): void;
  /** The call ended: stops streaming and hands over every frame, for the checkpoint to store. */
  end(): Frame[];
  /**
   * The call failed and the run ends with it: stores what it streamed, as the run's last frames
   * before its failure, so a reader keeps what it saw.
   */
  store(): Promise<void>;
  /** The call was cut short and will be made again: what it streamed is dropped, never stored. */
  drop(): void;
}

// The emitters holding frames not streamed yet, all flushed by one timer: a process streaming
// many model calls at once re-arms one timer every DELTA_FLUSH_MS, not one per call.
const waiting = new Set<Emitter>();
let tick: ReturnType<typeof setTimeout> | undefined;

function flushWaiting(): void {
  tick = undefined;
  for (const emitter of waiting) emitter.stream();
  waiting.clear();
}

class Emitter implements StepEmitter {
  private readonly after: number;
  private readonly frames: Frame[] = [];
  private streamed = 0;

  constructor(private readonly context: TurnContext) {
    this.after = context.journal.lastSeq;
  }

  emit(frame: Frame): void {
    this.frames.push(frame);
    if (this.frames.length === 1) this.stream();
    else if (!waiting.has(this)) {
      waiting.add(this);
      tick ??= setTimeout(flushWaiting, DELTA_FLUSH_MS);
    }
  }

  end(): Frame[] {
    this.stop();
    return this.frames;
  }

  async store(): Promise<void> {
    this.stop();
    await this.context.emit(this.frames);
  }

  drop(): void {
    this.stop();
    this.context.live.abandon();
  }

  /** Streams what was emitted since the last batch. */
  stream(): void {
    this.context.live.provisional(this.after, this.frames.slice(this.streamed));
    this.streamed = this.frames.length;
  }

  private stop(): void {
    if (!waiting.delete(this) || waiting.size > 0 || !tick) return;
    clearTimeout(tick);
    tick = undefined;
  }
}

/**
 * The frame emitter of one model call. Its frames are stored once, with the call's checkpoint,
 * when the call ends (one write per call, however long the reply). Until then they stream to
 * this process's followers from memory, without sequence numbers (see `RunFeeds.provisional`):
 * the call's first frame (`step-start`) the moment it is emitted, so a run's next frame after a
 * settlement or a tool waits for no commit, then a batch at most every {@link DELTA_FLUSH_MS}
 * (one timer flushes every call of the process that has frames waiting).
 */
export function stepEmitter(context: TurnContext): StepEmitter {
  return new Emitter(context);
}
