import { quoteChannel } from "./channel-name";

/** What an engine does when the first callback joins a channel and when the last one leaves. */
export interface ChannelSubscriber {
  /** Runs `LISTEN <quoted>` on the connection that receives notifications. */
  subscribe(quotedChannel: string): Promise<void>;
  /** Runs `UNLISTEN <quoted>`. */
  unsubscribe(quotedChannel: string): Promise<void>;
}

type Listener = (payload: string) => void;

/**
 * The callbacks listening on each channel of one database. The engine is told to LISTEN once per
 * channel, however many callbacks share it; changes run one at a time so a LISTEN and an UNLISTEN
 * for the same channel cannot cross.
 */
export class ChannelListeners {
  readonly #listeners = new Map<string, Set<Listener>>();
  #queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly subscriber: ChannelSubscriber) {}

  /** Every channel with at least one callback: what a fresh connection must LISTEN to again. */
  channels(): string[] {
    return [...this.#listeners.keys()];
  }

  /** Adds a callback; resolves, once the engine listens, to the function that removes it. */
  async add(channel: string, listener: Listener): Promise<() => Promise<void>> {
    const quoted = quoteChannel(channel);
    await this.#serially(async () => {
      const existing = this.#listeners.get(channel);
      if (existing) {
        existing.add(listener);
        return;
      }
      await this.subscriber.subscribe(quoted);
      this.#listeners.set(channel, new Set([listener]));
    });
    let removed = false;
    return async () => {
      if (removed) return;
      removed = true;
      await this.#serially(async () => {
        const set = this.#listeners.get(channel);
        if (!set?.delete(listener) || set.size > 0) return;
        this.#listeners.delete(channel);
        await this.subscriber.unsubscribe(quoted);
      });
    };
  }

  /** Calls every callback on `channel`; one that throws is reported and does not stop the others. */
  dispatch(channel: string, payload: string): void {
    for (const listener of [...(this.#listeners.get(channel) ?? [])]) {
      try {
        listener(payload);
      } catch (error) {
        console.error(`A listener on channel "${channel}" threw:`, error);
      }
    }
  }

  /** Forgets every callback (the database is closing). */
  clear(): void {
    this.#listeners.clear();
  }

  #serially<T>(step: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(step, step);
    this.#queue = next.catch(() => undefined);
    return next;
  }
}
