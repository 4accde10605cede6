"use client";

import { useCallback, useMemo, useSyncExternalStore } from "react";
import type { TranscriptMessage } from "./transcript-types";

/**
 * The ids of the calls the latest turn waits on (a question set still pending, an approval not
 * yet decided), live: the run is parked on them, so a new message would be refused until the
 * person acts. Joined by spaces, so the value changes only when the set does.
 */
export function useWaitingCalls(messages: readonly TranscriptMessage[]): string {
  const last = messages.at(-1);
  const blocks = useMemo(
    () =>
      last?.role === "assistant"
        ? last.blocks.filter((block) => block.type === "elicitation" || block.type === "approval")
        : [],
    [last],
  );
  const subscribe = useCallback(
    (listener: () => void) => {
      const unsubscribes = blocks.map((block) => block.subscribe(listener));
      return () => {
        for (const unsubscribe of unsubscribes) unsubscribe();
      };
    },
    [blocks],
  );
  const read = () =>
    blocks
      .filter((block) =>
        block.type === "elicitation"
          ? block.getSnapshot().phase === "pending"
          : block.type === "approval" && block.getSnapshot().status !== "settled",
      )
      .map((block) => block.id)
      .join(" ");
  return useSyncExternalStore(subscribe, read, read);
}
