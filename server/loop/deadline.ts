/**
 * Runs `work` with a signal of its own that aborts when the run's `signal` does (a cancel, the
 * process stopping) or after `ms`, and lets go the moment either happens, whether or not the work
 * listens to its signal: a provider or a tool handler that ignores it cannot hold the run, or its
 * slot, past its time. Throws the run's abort reason when the run was aborted, `onTimeout()` when
 * the time ran out, and otherwise whatever `work` throws.
 */
export async function withDeadline<T>(
  signal: AbortSignal | undefined,
  ms: number,
  work: (signal: AbortSignal) => Promise<T>,
  onTimeout: () => Error,
): Promise<T> {
  signal?.throwIfAborted();
  const call = new AbortController();
  let timedOut = false;
  let release: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    const fail = () => reject(timedOut ? onTimeout() : signal?.reason);
    const timer = setTimeout(() => {
      timedOut = true;
      call.abort(onTimeout());
      fail();
    }, ms);
    const onAbort = () => {
      call.abort(signal?.reason);
      fail();
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    release = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
  });
  // The losing side of the race may reject later; nobody waits for it then.
  stopped.catch(() => undefined);
  const working = work(call.signal);
  working.catch(() => undefined);
  try {
    return await Promise.race([working, stopped]);
  } catch (error) {
    // The work may fail of its own abort before the race hears of it: report why it was aborted.
    if (timedOut) throw onTimeout();
    if (signal?.aborted) throw signal.reason;
    throw error;
  } finally {
    release?.();
  }
}
