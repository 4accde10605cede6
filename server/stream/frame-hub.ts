import type { Store } from "../store/store";

/**
 * Wakes the followers of a key when a NOTIFY on its channel names it, heard by this process and
 * every other sharing the database alike: on `INBOX_CHANNEL`, the inbox feeds of an actor.
 * Followers also poll, so a lost notification only delays them. (A run's stream has its own, in
 * `RunFeeds`, which also carries the frames this process writes.)
 */
export class FrameHub {
  private readonly waiters = new Map<string, Set<() => void>>();
  private unlisten: (() => Promise<void>) | undefined;

  /**
   * @param store The store whose notifications are followed.
   * @param channel The NOTIFY channel; its payload is the key woken.
   */
  constructor(
    private readonly store: Store,
    private readonly channel: string,
  ) {}

  /** Starts listening. */
  async start(): Promise<void> {
    this.unlisten = await this.store.db.listen(this.channel, (key) => this.wake(key));
  }

  /** Stops listening and releases every waiter. */
  async stop(): Promise<void> {
    await this.unlisten?.().catch(() => undefined);
    for (const key of [...this.waiters.keys()]) this.wake(key);
  }

  /** Wakes the followers of a key. */
  wake(key: string): void {
    const set = this.waiters.get(key);
    if (!set) return;
    this.waiters.delete(key);
    for (const resolve of set) resolve();
  }

  /** Resolves when the key may have news, after `ms` at the latest, or when aborted. */
  wait(key: string, ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      let set = this.waiters.get(key);
      if (!set) {
        set = new Set();
        this.waiters.set(key, set);
      }
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        const waiting = this.waiters.get(key);
        waiting?.delete(done);
        // A server follows many keys over its life; keep only the ones someone still waits on.
        if (waiting?.size === 0) this.waiters.delete(key);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener("abort", done, { once: true });
      set.add(done);
    });
  }
}
