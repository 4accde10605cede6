/**
 * One call's race against its time and its run's signal: settles the call's promise once, with
 * the work's result, `onTimeout()` or the run's abort reason, whichever comes first. An object
 * rather than closures: it is made for every model and tool call, and is its own abort listener.
 */
class Deadline<T> {
  /** The signal the work gets: aborted when the run's is, or when the time runs out. */
  readonly call = new AbortController();
  private timedOut = false;
  private settled = false;
  private readonly timer: ReturnType<typeof setTimeout>;

  constructor(
    private readonly signal: AbortSignal | undefined,
    ms: number,
    private readonly onTimeout: () => Error,
    private readonly resolve: (value: T) => void,
    private readonly reject: (error: unknown) => void,
  ) {
    this.timer = setTimeout(expire, ms, this);
    signal?.addEventListener("abort", this, { once: true });
  }

  /** The work ended first with `value`. */
  done(value: T): void {
    if (this.release()) this.resolve(value);
  }

  /** The work failed, perhaps of its own abort before the race heard of it: reports why it was aborted. */
  failed(error: unknown): void {
    if (!this.release()) return;
    if (this.timedOut) this.reject(this.onTimeout());
    else if (this.signal?.aborted) this.reject(this.signal.reason);
    else this.reject(error);
  }

  /** The time ran out: the work is aborted and let go of. */
  expire(): void {
    if (this.settled) return;
    this.timedOut = true;
    this.call.abort(this.onTimeout());
    if (this.release()) this.reject(this.onTimeout());
  }

  /** The run's signal aborted (a cancel, the process stopping): the work is aborted and let go of. */
  handleEvent(): void {
    if (this.settled) return;
    this.call.abort(this.signal?.reason);
    if (this.release()) this.reject(this.signal?.reason);
  }

  /** Stops the timer and the listener; false when the race was already decided. */
  private release(): boolean {
    if (this.settled) return false;
    this.settled = true;
    clearTimeout(this.timer);
    this.signal?.removeEventListener("abort", this);
    return true;
  }
}

function expire<T>(deadline: Deadline<T>): void {
  deadline.expire();
}

/**
 * Runs `work` with a signal of its own that aborts when the run's `signal` does (a cancel, the
 * process stopping) or after `ms`, and lets go the moment either happens, whether or not the work
 * listens to its signal: a provider or a tool handler that ignores it cannot hold the run, or its
 * slot, past its time. Throws the run's abort reason when the run was aborted, `onTimeout()` when
 * the time ran out, and otherwise whatever `work` throws.
 */
export function withDeadline<T>(
  signal: AbortSignal | undefined,
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
  onTimeout: () => Error,
): Promise<T> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const deadline = new Deadline(signal, ms, onTimeout, resolve, reject);
    let working: Promise<T>;
    try {
      working = work(deadline.call.signal);
    } catch (error) {
      deadline.failed(error);
      return;
    }
    // The losing side of the race may settle later; the deadline ignores it then.
    working.then(
      (value) => deadline.done(value),
      (error: unknown) => deadline.failed(error),
    );
  });
}
