"use client";

import { useEffect, useRef, useSyncExternalStore } from "react";
import { followSharedInbox } from "@/lib/prepick/transport/shared-inbox-feed";
import type { ToolCallClient } from "@/lib/prepick/transport/tool-call-client";
import { type DraftStorage, sessionDraftStorage } from "./draft-storage";
import { type PendingCallsSnapshot, PendingCallsStore } from "./pending-calls-store";
import type { PrepickMessagesInput } from "./prepick-messages";

/** Where `usePendingCalls` reads the inbox from and how its blocks are made. */
export interface UsePendingCallsOptions {
  /** The chat's transport (`AgentChatTransport`); its `client` reads the feed and settles calls. */
  transport?: { client: ToolCallClient };
  /** A client, when there is no transport at hand. */
  client?: ToolCallClient;
  /** Sentences in the app's language, laid over the English defaults. */
  messages?: PrepickMessagesInput;
  /** Where a question set's draft is kept: session storage when left out (as the transcript), `null` for nowhere. */
  drafts?: DraftStorage | null;
}

/** The actor's waiting calls, live. */
export interface PendingCalls extends PendingCallsSnapshot {
  /** How many calls wait: `calls.length`. */
  count: number;
}

/**
 * The actor's waiting calls, in every conversation, kept live from the server's inbox feed: a
 * call appears when a run starts waiting on it and leaves the moment it is settled, in this tab
 * or any other, by anyone. Each comes with the block the transcript uses for it (a question
 * set's `setValue`, `isValid`, answer and skip; an approval's approve and reject), so it can be
 * answered in place, and answering it continues its conversation's run on the server. Every
 * tab and hook of the browser on the same inbox shares one connection to the feed.
 */
export function usePendingCalls(options: UsePendingCallsOptions): PendingCalls {
  const client = options.client ?? options.transport?.client;
  if (!client) throw new Error("usePendingCalls: pass { transport } or { client } to read the inbox.");
  const storeRef = useRef<{ client: ToolCallClient; store: PendingCallsStore } | null>(null);
  if (storeRef.current === null || storeRef.current.client !== client) {
    const drafts = options.drafts === undefined ? sessionDraftStorage() : (options.drafts ?? undefined);
    storeRef.current = {
      client,
      store: new PendingCallsStore(client, { messages: options.messages, drafts }),
    };
  }
  const { store } = storeRef.current;
  useEffect(() => {
    const abort = new AbortController();
    void followSharedInbox(
      client,
      { onEvent: (event, fresh) => store.apply(event, fresh), onDisconnect: () => store.disconnected() },
      abort.signal,
    );
    return () => abort.abort();
  }, [client, store]);
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot);
  return { ...snapshot, count: snapshot.calls.length };
}
