"use client";

import { useCallback, useRef, useSyncExternalStore } from "react";
import { type CreateElicitationOptions, createElicitation } from "./create-elicitation";
import type { ElicitationBlock, ElicitationQuestionState, ElicitationSnapshot } from "./transcript-types";

/** A block's whole snapshot; re-renders on every change of the block. */
export function useElicitationSnapshot(block: ElicitationBlock): ElicitationSnapshot {
  return useSyncExternalStore(block.subscribe, block.getSnapshot, block.getSnapshot);
}

/**
 * One slice of a block's snapshot; re-renders only when the slice changes (compared with
 * `Object.is`, so select a primitive or an object the snapshot keeps, e.g. `s => s.answer`).
 */
export function useElicitationSelector<T>(
  block: ElicitationBlock,
  select: (snapshot: ElicitationSnapshot) => T,
): T {
  const read = () => select(block.getSnapshot());
  return useSyncExternalStore(block.subscribe, read, read);
}

/** One question's state; a keystroke in another question does not re-render the caller. */
export function useElicitationQuestion(
  block: ElicitationBlock,
  questionId: string,
): ElicitationQuestionState {
  const subscribe = useCallback(
    (listener: () => void) => block.subscribeQuestion(questionId, listener),
    [block, questionId],
  );
  const read = () => {
    const state = block.getQuestion(questionId);
    if (!state)
      throw new Error(`useElicitationQuestion: question "${questionId}" is not in block "${block.id}"`);
    return state;
  };
  return useSyncExternalStore(subscribe, read, read);
}

/**
 * A standalone elicitation block for a component's lifetime (created once from the first
 * options), with its snapshot. For forms that run outside a chat.
 */
export function useElicitation(options: CreateElicitationOptions): {
  block: ElicitationBlock;
  snapshot: ElicitationSnapshot;
} {
  const ref = useRef<ElicitationBlock | null>(null);
  if (ref.current === null || ref.current.id !== options.id) ref.current = createElicitation(options);
  const block = ref.current;
  return { block, snapshot: useElicitationSnapshot(block) };
}
