/** A value that changes over time, read as `useSyncExternalStore` reads it. */
export interface ReadableStore<T> {
  /** The current value: the same object until it changes. */
  getSnapshot: () => T;
  /** Calls `listener` after each change; returns the unsubscribe. */
  subscribe: (listener: () => void) => () => void;
}

/** A store its owner writes. */
export interface WritableStore<T> extends ReadableStore<T> {
  /** Replaces the value, or derives it from the current one; listeners hear only of a real change. */
  set: (next: T | ((current: T) => T)) => void;
}

/**
 * The one store primitive under the hooks' stores (the question set, the approval, the inbox, the
 * conversation list, the transcript's rebuilds), in the manner of zustand's vanilla store: a value,
 * its listeners, and a setter that tells them only when the value changed (`Object.is`). The
 * value must not itself be a function.
 */
export function createStore<T>(initial: T): WritableStore<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    getSnapshot: () => value,
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    set(next) {
      const resolved = typeof next === "function" ? (next as (current: T) => T)(value) : next;
      if (Object.is(resolved, value)) return;
      value = resolved;
      // A listener may unsubscribe while others are told: tell the ones subscribed now.
      for (const listener of [...listeners]) listener();
    },
  };
}
