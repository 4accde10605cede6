import type { Frame } from "prepick/core";
import { FRAMES_CHANNEL } from "../store/channels";
import { readFramesNotification } from "../store/frames";
import { jsonOnce } from "../store/json";
import type { Store } from "../store/store";

/**
 * A frame as a follower sends it: the JSON text (made once, for the store and every follower)
 * and, once stored, its sequence number. A frame without one is a model call's, streamed before
 * the call's checkpoint stores it.
 */
export interface LiveFrame {
  /** The sequence number; undefined while the frame is not stored yet. */
  seq: number | undefined;
  /** The frame. */
  frame: Frame;
  /** Its JSON text. */
  json: string;
}

/**
 * A frame this process wrote or streams, as its feed keeps it: its JSON text is made when a
 * follower first sends it (a run nobody follows never serializes its frames a second time) and
 * shared with the store's write of the same frame (see `jsonOnce`).
 */
class WrittenFrame implements LiveFrame {
  constructor(
    readonly seq: number | undefined,
    readonly frame: Frame,
  ) {}

  get json(): string {
    return jsonOnce(this.frame);
  }
}

/** What a follower was woken by. */
export type Wake = "written" | "notified" | "timeout";

/** How many stored frames a feed keeps for its followers: more than one model call's, usually. */
const RECENT = 512;

/** One run's live state in this process: what it wrote lately, its unstored frames, its followers. */
class RunFeed {
  /** Stored frames this process wrote, contiguous, in order; the latest {@link RECENT}. */
  recent: LiveFrame[] = [];
  /** The frames of the model call in progress here, not stored yet, and the number they follow. */
  provisional: { after: number; frames: LiveFrame[] } | undefined;
  /** Followers waiting for something new. */
  readonly waiters = new Set<Subscription>();
  /** How many followers, and whether this process runs the run (it then writes every frame itself). */
  followers = 0;
  held = 0;

  get lastSeq(): number {
    return this.recent.at(-1)?.seq ?? 0;
  }

  wake(wake: Wake): void {
    // Each waiter leaves the set as it is woken.
    for (const waiter of this.waiters) waiter.done(wake);
  }
}

function timedOut(subscription: Subscription): void {
  subscription.done("timeout");
}

/**
 * A follower's view of one run's feed: see {@link FeedSubscription}. A follower waits after every
 * batch it sends, so a subscription keeps one timer (re-armed by each wait) and one listener of
 * the follower's signal for all its waits, and a wait asked while one is pending is that one.
 */
class Subscription implements FeedSubscription {
  private closed = false;
  private pending: PromiseWithResolvers<Wake> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerMs = 0;
  private signal: AbortSignal | undefined;

  constructor(
    private readonly feeds: RunFeeds,
    private readonly runId: string,
    private readonly feed: RunFeed,
  ) {
    feed.followers += 1;
  }

  storedAfter(after: number): LiveFrame[] | undefined {
    const { recent } = this.feed;
    const last = recent.at(-1)?.seq ?? 0;
    if (last <= after) return [];
    const first = recent[0]?.seq ?? 0;
    if (first > after + 1) return undefined;
    return recent.slice(after + 1 - first);
  }

  provisional(): { after: number; frames: readonly LiveFrame[] } | undefined {
    return this.feed.provisional;
  }

  wait(ms: number, signal: AbortSignal): Promise<Wake> {
    if (this.closed || signal.aborted) return Promise.resolve("timeout");
    if (signal !== this.signal) {
      this.signal?.removeEventListener("abort", this);
      signal.addEventListener("abort", this, { once: true });
      this.signal = signal;
    }
    // `ms` from now, whether or not an earlier wait's time was already running.
    if (this.timer && ms === this.timerMs) this.timer.refresh();
    else {
      clearTimeout(this.timer);
      this.timer = setTimeout(timedOut, ms, this);
      this.timerMs = ms;
    }
    if (!this.pending) {
      this.pending = Promise.withResolvers<Wake>();
      this.feed.waiters.add(this);
    }
    return this.pending.promise;
  }

  /** Ends the pending wait, if any, with what woke it. */
  done(wake: Wake): void {
    const pending = this.pending;
    if (!pending) return;
    this.pending = undefined;
    this.feed.waiters.delete(this);
    pending.resolve(wake);
  }

  /** The follower's signal aborted. */
  handleEvent(): void {
    this.done("timeout");
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    this.signal?.removeEventListener("abort", this);
    this.done("timeout");
    this.feed.followers -= 1;
    this.feeds.release(this.runId, this.feed);
  }
}

/** A follower's view of one run's feed. */
export interface FeedSubscription {
  /**
   * Stored frames after `after` this process holds in memory, in order: all of them when it
   * holds the next one, an empty list when it holds nothing newer, undefined when it cannot say
   * (it holds newer frames but not the next one: read the store).
   */
  storedAfter(after: number): LiveFrame[] | undefined;
  /** The model call in progress here: its frames, not stored yet, which follow frame `after`. */
  provisional(): { after: number; frames: readonly LiveFrame[] } | undefined;
  /** Resolves when something new may be there, after `ms` at the latest, or when aborted. */
  wait(ms: number, signal: AbortSignal): Promise<Wake>;
  /** Stops following. */
  close(): void;
}

/**
 * The live side of every run's stream in this process. Frames this process writes reach its
 * followers from memory as their statement commits (the store hands them over), without a read;
 * a model call's frames reach them as they stream, before the call's checkpoint stores them.
 * Frames written by other processes wake followers through the store's NOTIFY, and they read
 * them from the store. A run this process holds is written only here, so its NOTIFYs are ignored.
 */
export class RunFeeds {
  private readonly feeds = new Map<string, RunFeed>();
  private unlisten: (() => Promise<void>) | undefined;

  /** @param store The store whose writes and notifications feed the followers. */
  constructor(private readonly store: Store) {}

  /** Starts taking the store's writes and listening for other processes'. */
  async start(): Promise<void> {
    this.store.onFramesWritten((runId, first, frames) => this.written(runId, first, frames));
    this.unlisten = await this.store.db.listen(FRAMES_CHANNEL, (payload) => this.notified(payload));
  }

  /** Stops listening and releases every waiting follower. */
  async stop(): Promise<void> {
    this.store.onFramesWritten(() => undefined);
    await this.unlisten?.().catch(() => undefined);
    for (const feed of this.feeds.values()) feed.wake("timeout");
  }

  /** Follows run `runId`; call `close()` when done. */
  subscribe(runId: string): FeedSubscription {
    return new Subscription(this, runId, this.feed(runId));
  }

  /**
   * Marks run `runId` as run by this process until the returned function is called: every frame
   * of it is then written here, so its followers here take them from memory alone.
   */
  hold(runId: string): () => void {
    const feed = this.feed(runId);
    feed.held += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      feed.held -= 1;
      feed.provisional = undefined;
      this.release(runId, feed);
    };
  }

  /**
   * Streams frames of the model call in progress on run `runId` to its followers here, before the
   * call's checkpoint stores them: they follow stored frame `after`, and extend those given before
   * with the same `after`.
   */
  provisional(runId: string, after: number, frames: readonly Frame[]): void {
    const feed = this.feeds.get(runId);
    if (!feed || frames.length === 0) return;
    const live = frames.map((frame) => new WrittenFrame(undefined, frame));
    if (feed.provisional?.after === after) feed.provisional.frames.push(...live);
    else feed.provisional = { after, frames: live };
    if (feed.followers > 0) feed.wake("written");
  }

  /** Forgets run `runId`'s unstored frames: its model call ended without storing them. */
  abandon(runId: string): void {
    const feed = this.feeds.get(runId);
    if (feed) feed.provisional = undefined;
  }

  private written(runId: string, first: number, frames: readonly Frame[]): void {
    const feed = this.feeds.get(runId);
    if (!feed || frames.length === 0) return;
    // A gap (frames this process did not write came between) starts the kept frames afresh.
    if (feed.recent.length > 0 && feed.lastSeq + 1 !== first) feed.recent = [];
    feed.recent.push(...frames.map((frame, index) => new WrittenFrame(first + index, frame)));
    if (feed.recent.length > RECENT) feed.recent.splice(0, feed.recent.length - RECENT);
    // Whatever was streamed unstored is now stored, or was given up: a stored frame follows it.
    if (feed.provisional && feed.provisional.after < first + frames.length - 1) feed.provisional = undefined;
    feed.wake("written");
  }

  private notified(payload: string): void {
    const { runId, lastSeq } = readFramesNotification(payload);
    const feed = this.feeds.get(runId);
    if (!feed || feed.held > 0) return;
    const known = () => lastSeq !== undefined && lastSeq <= feed.lastSeq;
    if (known()) return;
    // The notification of a statement this process ran can come before the statement's own
    // answer: give that answer a turn to hand its frames over, and skip the read.
    setImmediate(() => {
      if (!known()) feed.wake("notified");
    });
  }

  private feed(runId: string): RunFeed {
    let feed = this.feeds.get(runId);
    if (!feed) {
      feed = new RunFeed();
      this.feeds.set(runId, feed);
    }
    return feed;
  }

  /** Forgets a feed nobody follows and this process does not run: a server follows many runs over its life. */
  release(runId: string, feed: RunFeed): void {
    if (feed.followers > 0 || feed.held > 0) return;
    if (this.feeds.get(runId) === feed) this.feeds.delete(runId);
  }
}
