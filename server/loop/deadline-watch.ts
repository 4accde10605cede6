import { isStoreUnavailable } from "../database/store-unavailable";
import { logError } from "../log";
import { DEADLINES_CHANNEL } from "../store/channels";
import type { Store } from "../store/store";

// A timer cannot wait longer than this; a later deadline is looked at again when it fires.
const LONGEST_WAIT_MS = 2_147_483_647;
// After a look that found nothing due yet (the database's clock a little ahead), wait at least this.
const RELOOK_MS = 200;
// After a failed look (the store unreachable), try again this soon.
const RETRY_MS = 1_000;

/**
 * Ends parked runs at their deadline, in every process: each keeps a timer for the earliest
 * deadline it knows (read when it starts, and told by NOTIFY on `prepick_deadlines` whenever a run
 * with a deadline parks, in any process), and when it fires ends every parked run whose deadline
 * passed (`DeadlineStore.expireDue`; a run another process ends first is skipped). With no run
 * that has a deadline, it reads the store once at start and keeps no timer.
 */
export class DeadlineWatch {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private due: number | undefined;
  private running: Promise<void> | undefined;
  private stopped = false;
  private unlisten: (() => Promise<void>) | undefined;

  /** @param store The store. */
  constructor(private readonly store: Store) {}

  /** Listens for deadlines of runs that park, and arms for the earliest one stored. */
  async start(): Promise<void> {
    this.unlisten = await this.store.db.listen(DEADLINES_CHANNEL, (payload) => this.arm(Number(payload)));
    const next = await this.store.deadlines.next();
    if (next) this.arm(next.getTime());
  }

  /** Stops the timer and waits for a look in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.unlisten?.().catch(() => undefined);
    await this.running?.catch(() => undefined);
  }

  /** Makes sure the timer fires by `at` (ms since the epoch). */
  private arm(at: number, least = 0): void {
    if (this.stopped || !Number.isFinite(at)) return;
    if (this.due !== undefined && this.due <= at) return;
    this.due = at;
    clearTimeout(this.timer);
    const wait = Math.min(Math.max(at - Date.now(), least), LONGEST_WAIT_MS);
    this.timer = setTimeout(() => this.fire(), wait);
    this.timer.unref?.();
  }

  private fire(): void {
    this.due = undefined;
    if (this.stopped) return;
    if (this.running) {
      // A look is under way: look again once it ends, for what came due meanwhile.
      void this.running.then(() => this.arm(Date.now()));
      return;
    }
    this.running = (async () => {
      const ended = await this.store.deadlines.expireDue();
      const next = await this.store.deadlines.next();
      // Nothing ended yet the next is due: the database's clock is behind this one. Look again soon.
      if (next) this.arm(next.getTime(), ended.length === 0 ? RELOOK_MS : 0);
    })()
      .catch((error) => {
        if (this.stopped) return;
        if (!isStoreUnavailable(error)) logError("ending runs past their deadline failed", error);
        this.arm(Date.now() + RETRY_MS);
      })
      .finally(() => {
        this.running = undefined;
      });
  }
}
