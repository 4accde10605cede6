import type { ThreadSummary } from "@/lib/prepick/core/inbox";
import type { ToolCallClient } from "@/lib/prepick/transport/tool-call-client";
import { createStore } from "./create-store";

/** Where the conversation list stands. */
export interface ThreadListSnapshot {
  /** The conversations read so far, newest activity first. */
  threads: readonly ThreadSummary[];
  /** `loading` while a page is on its way; `error` when the last read failed. */
  status: "loading" | "idle" | "error";
  /** Why the last read failed, for the person. */
  error: string | undefined;
  /** Whether older conversations are left to load. */
  hasMore: boolean;
}

/**
 * The actor's conversations, a page at a time (`GET /agent/threads`): `refresh` reads the first
 * page again, `loadMore` the next. Reads never cross: a refresh drops a page still on its way.
 */
export class ThreadListStore {
  private readonly store = createStore<ThreadListSnapshot>({
    threads: [],
    status: "loading",
    error: undefined,
    hasMore: false,
  });
  private nextCursor: string | null = null;
  private generation = 0;

  private readonly client: Pick<ToolCallClient, "threads">;
  private readonly pageSize: number;

  /** A list read through `client`, `pageSize` conversations a page. */
  constructor(client: Pick<ToolCallClient, "threads">, pageSize = 50) {
    // Fields, not parameter properties: apps compiled with `erasableSyntaxOnly` refuse those.
    this.client = client;
    this.pageSize = pageSize;
  }

  /** The current snapshot; a new object whenever something changed. */
  getSnapshot = (): ThreadListSnapshot => this.store.getSnapshot();

  /** Calls `listener` on every change; returns the unsubscribe. */
  subscribe = (listener: () => void): (() => void) => this.store.subscribe(listener);

  /** Reads the first page again (a conversation started, or took a turn). */
  refresh = (): Promise<void> => this.read(undefined);

  /** Reads the next page, if there is one. */
  loadMore = (): Promise<void> =>
    this.nextCursor === null || this.getSnapshot().status === "loading"
      ? Promise.resolve()
      : this.read(this.nextCursor);

  private async read(cursor: string | undefined): Promise<void> {
    const generation = ++this.generation;
    this.set({ status: "loading" });
    const response = await this.client.threads({ ...(cursor ? { cursor } : {}), limit: this.pageSize });
    if (generation !== this.generation) return;
    if (!response.ok) {
      this.set({ status: "error", error: response.failure.error });
      return;
    }
    const { threads, nextCursor } = response.result;
    this.nextCursor = nextCursor;
    const seen = new Set(threads.map(({ id }) => id));
    const kept = cursor ? this.getSnapshot().threads.filter(({ id }) => !seen.has(id)) : [];
    this.set({
      threads: [...kept, ...threads],
      status: "idle",
      error: undefined,
      hasMore: nextCursor !== null,
    });
  }

  private set(change: Partial<ThreadListSnapshot>): void {
    this.store.set((snapshot) => ({ ...snapshot, ...change }));
  }
}
