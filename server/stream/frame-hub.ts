import { FRAMES_CHANNEL } from "../store/channels";
import type { Store } from "../store/store";

/**
 * Wakes stream followers when a run gets new frames: every statement that writes frames sends
 * a NOTIFY with it, heard by this process and every other sharing the database alike. Followers
 * also poll, so a lost notification only delays them. On another channel it wakes the followers
 * of another key: on `INBOX_CHANNEL`, the inbox feeds of an actor.
 */
export class FrameHub {
  private readonly waiters = new Map<string, Set<() => void>>();
  private unlisten: (() => Promise<void>) | undefined;

  /**
   * @param store The store whose notifications are followed.
   * @param channel The NOTIFY channel; its payload is the key woken (a run id by default).
   */
  constructor(
    private readonly store: Store,
    private readonly channel: string = FRAMES_CHANNEL,
  ) {}

  /** Starts listening. */
  async start(): Promise<void> {
    this.unlisten = await this.store.db.listen(this.channel, (key) => this.wake(key));
  }

  /** Stops listening and releases every waiter. */
  async stop(): Promise<void> {
    await this.unlisten?.().catch(() => undefined);
    for (const runId of [...this.waiters.keys()]) this.wake(runId);
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
