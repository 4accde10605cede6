"use client";

import { useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import type { ThreadSummary } from "@/lib/prepick/core/inbox";
import type { ToolCallClient } from "@/lib/prepick/transport/tool-call-client";
import type { PendingCallItem } from "./pending-calls-store";
import { type ThreadListSnapshot, ThreadListStore } from "./thread-list-store";

/** Where `useThreads` reads the conversations from. */
export interface UseThreadsOptions {
  /** The chat's transport (`AgentChatTransport`). */
  transport?: { client: ToolCallClient };
  /** A client, when there is no transport at hand. */
  client?: ToolCallClient;
  /** `usePendingCalls().calls`: keeps each conversation's waiting count live. */
  pending?: readonly PendingCallItem[];
  /** Conversations per page (50 by default, at most 200). */
  pageSize?: number;
  /** False reads nothing (a page that shows no list); true by default. */
  enabled?: boolean;
}

/** The conversation list. */
export interface Threads extends ThreadListSnapshot {
  /** Reads the first page again. */
  refresh: () => Promise<void>;
  /** Reads the next page. */
  loadMore: () => Promise<void>;
}

/**
 * The actor's conversations, newest activity first, with their agents, titles and waiting counts.
 * Given `pending` (from `usePendingCalls`), each count follows the inbox live, and a call that
 * starts waiting in a conversation the list does not hold yet reads the first page again.
 */
export function useThreads(options: UseThreadsOptions): Threads {
  const client = options.client ?? options.transport?.client;
  if (!client) throw new Error("useThreads: pass { transport } or { client } to read the conversations.");
  const storeRef = useRef<{ client: ToolCallClient; store: ThreadListStore } | null>(null);
  if (storeRef.current === null || storeRef.current.client !== client) {
    storeRef.current = { client, store: new ThreadListStore(client, options.pageSize) };
  }
  const { store } = storeRef.current;
  const enabled = options.enabled ?? true;
  useEffect(() => {
    if (enabled) void store.refresh();
  }, [store, enabled]);
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  const { pending } = options;
  const unknownThread = pending?.some(({ call }) => !snapshot.threads.some(({ id }) => id === call.threadId));
  useEffect(() => {
    if (enabled && unknownThread && snapshot.status === "idle") void store.refresh();
  }, [enabled, unknownThread, snapshot.status, store]);
  const threads = useMemo((): readonly ThreadSummary[] => {
    if (!pending) return snapshot.threads;
    const waiting = new Map<string, number>();
    for (const { call } of pending) waiting.set(call.threadId, (waiting.get(call.threadId) ?? 0) + 1);
    return snapshot.threads.map((thread) => {
      const count = waiting.get(thread.id) ?? 0;
      return count === thread.waiting ? thread : { ...thread, waiting: count };
    });
  }, [snapshot.threads, pending]);
  return { ...snapshot, threads, refresh: store.refresh, loadMore: store.loadMore };
}
