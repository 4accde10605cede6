"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import type { CallView } from "@/lib/prepick/core/inbox";
import type { ToolCallClient } from "@/lib/prepick/transport/tool-call-client";
import { type DraftStorage, sessionDraftStorage } from "./draft-storage";
import { type PendingCallItem, PendingCallsStore } from "./pending-calls-store";
import type { PrepickMessagesInput } from "./prepick-messages";
import { seedDraft, serverDraftStorage } from "./server-drafts";

/** Where `usePendingCall` reads the call from and how its block is made. */
export interface UsePendingCallOptions {
  /** The client that reads the call and settles it (`transport.client`). */
  client: ToolCallClient;
  /** The call's id, e.g. from the `/answer/:callId` route a webhook's link opens. */
  callId: string;
  /** Sentences in the app's language, laid over the English defaults. */
  messages?: PrepickMessagesInput;
  /**
   * Where a question set's draft is kept in this tab: session storage when left out, `null` for
   * nowhere. Unless `null`, it is also kept on the server, and one from another device resumes here.
   */
  drafts?: DraftStorage | null;
}

/**
 * One call as its deep link shows it: `loading`; `waiting` with the block the transcript and the
 * inbox use for it, answerable here (it stays `waiting` once answered here: the block itself
 * shows its outcome); `settled` when it had stopped waiting before the page opened; `not-found`
 * for a call that does not exist or is not the actor's (the server answers both alike); `failed`
 * when the server could not be read, with `retry` to read it again (back through `loading`).
 */
export type PendingCallState =
  | { status: "loading" }
  | { status: "waiting"; view: CallView; item: PendingCallItem }
  | { status: "settled"; view: CallView }
  | { status: "not-found"; error: string }
  | { status: "failed"; error: string; retry: () => void };

/**
 * Reads one of the actor's calls by id and, while it waits, gives the same block the transcript
 * and the inbox give it, so a link opened on any device answers it there.
 */
export function usePendingCall(options: UsePendingCallOptions): PendingCallState {
  const { client, callId } = options;
  const [state, setState] = useState<PendingCallState>({ status: "loading" });
  // Each retry is one more read of the call: the effect below runs again for it.
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  // Read when the call arrives: new words or storage do not read the call again.
  const made = useRef(options);
  made.current = options;
  // biome-ignore lint/correctness/useExhaustiveDependencies: each retry (`attempt`) reads the call anew.
  useEffect(() => {
    let current = true;
    setState({ status: "loading" });
    void client.toolCall(callId).then((response) => {
      if (!current) return;
      if (!response.ok) {
        const { failure } = response;
        setState(
          failure.kind === "not-found"
            ? { status: "not-found", error: failure.error }
            : { status: "failed", error: failure.error, retry },
        );
        return;
      }
      const view = response.result;
      if (view.status !== "pending_approval") {
        setState({ status: "settled", view });
        return;
      }
      const { messages, drafts } = made.current;
      // What the person typed on another device comes with the call; it is saved back as they go on.
      const local = drafts === undefined ? sessionDraftStorage() : (drafts ?? undefined);
      seedDraft(local, callId, view.draft);
      const store = new PendingCallsStore(client, {
        messages,
        drafts: drafts === null ? undefined : serverDraftStorage(client, local),
      });
      store.apply({ kind: "waiting", call: { ...view, status: "pending_approval" } }, false);
      const item = store.getSnapshot().calls[0];
      if (item) setState({ status: "waiting", view, item });
    });
    return () => {
      current = false;
    };
  }, [client, callId, attempt, retry]);
  return state;
}
