import type { SequencedFrame } from "prepick/core";
import { FRAMES_CHANNEL, type Store } from "../store/store";

// How many of a run's latest frames, committed by this process, followers can take from memory.
const RECENT_FRAMES = 256;
// How long a run's recent frames are kept after its last commit.
const RECENT_MS = 10_000;

/**
 * Wakes stream followers when a run gets new frames, from this process or any other sharing
 * the database (NOTIFY). Followers also poll, so a lost notification only delays them.
 */
export class FrameHub {
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly recentFrames = new Map<
    string,
    { frames: SequencedFrame[]; timer: ReturnType<typeof setTimeout> }
  >();
  private unlisten: (() => Promise<void>) | undefined;
  private stopLocal: (() => void) | undefined;

  /** @param store The store whose frames are followed. */
  constructor(private readonly store: Store) {}

  /** Starts listening. */
  async start(): Promise<void> {
    // Frames this process commits wake its followers at once; the NOTIFY covers other processes.
    this.stopLocal = this.store.onFramesCommitted((runId, frames) => {
      if (frames) this.remember(runId, frames);
      else this.recentFrames.delete(runId);
      this.wake(runId);
    });
    this.unlisten = await this.store.db.listen(FRAMES_CHANNEL, (runId) => this.wake(runId));
  }

  /** Stops listening and releases every waiter. */
  async stop(): Promise<void> {
    this.stopLocal?.();
    await this.unlisten?.().catch(() => undefined);
    for (const runId of [...this.waiters.keys()]) this.wake(runId);
    for (const { timer } of this.recentFrames.values()) clearTimeout(timer);
    this.recentFrames.clear();
  }

  /**
   * The run's frames after `after` from memory, when this process committed them lately (a
   * follower then needs no read); undefined when the store must be read: the memory does not
   * reach back to `after`, or holds nothing newer (another process may have written since).
   */
  recent(runId: string, after: number): SequencedFrame[] | undefined {
    const frames = this.recentFrames.get(runId)?.frames;
    const first = frames?.[0]?.seq;
    const last = frames?.at(-1)?.seq;
    if (!frames || first === undefined || last === undefined || first > after + 1 || after >= last) {
      return undefined;
    }
    return frames.slice(after + 1 - first);
  }

  private remember(runId: string, committed: readonly SequencedFrame[]): void {
    const entry = this.recentFrames.get(runId);
    const last = entry?.frames.at(-1)?.seq;
    // Only a dense run of numbers stands for the store; anything else starts the memory afresh.
    const frames =
      entry && last !== undefined && committed[0]?.seq === last + 1
        ? [...entry.frames, ...committed].slice(-RECENT_FRAMES)
        : [...committed];
    if (entry) clearTimeout(entry.timer);
    const timer = setTimeout(() => this.recentFrames.delete(runId), RECENT_MS);
    timer.unref?.();
    this.recentFrames.set(runId, { frames, timer });
  }

  /** Wakes the followers of a run. */
  wake(runId: string): void {
    const set = this.waiters.get(runId);
    if (!set) return;
    this.waiters.delete(runId);
    for (const resolve of set) resolve();
  }

  /** Resolves when the run may have new frames, after `ms` at the latest, or when aborted. */
  wait(runId: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let set = this.waiters.get(runId);
      if (!set) {
        set = new Set();
        this.waiters.set(runId, set);
      }
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        const waiting = this.waiters.get(runId);
        waiting?.delete(done);
        // A server follows many runs over its life; keep only the ones someone still waits on.
        if (waiting?.size === 0) this.waiters.delete(runId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener("abort", done, { once: true });
      set.add(done);
    });
  }
}
