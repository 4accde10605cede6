"use client";

import { useLayoutEffect, useMemo, useRef, useSyncExternalStore } from "react";
import type { ToolCallActions } from "@/lib/prepick/transport/tool-call-client";
import { type DraftStorage, sessionDraftStorage } from "./draft-storage";
import type { PrepickMessagesInput } from "./prepick-messages";
import { usePrepickMessages } from "./prepick-messages-context";
import { TranscriptBuilder, type TranscriptChat } from "./transcript-builder";
import type { ApprovalBlock, ApprovalState, ElicitationBlock, TranscriptMessage } from "./transcript-types";

/** Where `useChatTranscript` sends answers, skips and approvals of provider-executed tool parts. */
export interface UseChatTranscriptOptions {
  /**
   * The chat's transport; its `client` carries answer, skip, approve and reject
   * (`AgentChatTransport` for the reference server, `AgUiChatTransport` for an AG-UI agent).
   */
  transport?: { client: ToolCallActions };
  /** A client, when there is no transport at hand. */
  client?: ToolCallActions;
  /**
   * Sentences in the app's language (errors, settled answers, and every word a question set's
   * form shows), laid over the nearest `PrepickMessagesProvider`'s or the English defaults. Read
   * when the hook mounts.
   */
  messages?: PrepickMessagesInput;
  /**
   * Where a pending question set's draft is kept, so a reload or a crash of the tab does not lose
   * it: the browser's session storage when left out, `null` for nowhere. Read when the hook mounts.
   */
  drafts?: DraftStorage | null;
}

/** The conversation as a transcript of blocks. */
export interface ChatTranscript {
  /** Every message as blocks; a message keeps its object until it changes. */
  messages: readonly TranscriptMessage[];
  /** Every question set in the conversation, oldest first. */
  elicitations: readonly ElicitationBlock[];
}

/**
 * The conversation of a `useChat` (or an AI SDK `Chat`) as a transcript of blocks: text,
 * reasoning, tool calls, approvals and question sets. A question set's block keeps one store for
 * its whole life; answering it through the reference server follows the run with `resumeStream`,
 * and on a plain AI SDK backend (a client-side `ask` tool) settles it with `addToolOutput`.
 */
export function useChatTranscript(
  chat: TranscriptChat,
  options: UseChatTranscriptOptions = {},
): ChatTranscript {
  const client = options.client ?? options.transport?.client;
  const messages = usePrepickMessages(options.messages);
  const builderRef = useRef<TranscriptBuilder | null>(null);
  if (builderRef.current === null) {
    const drafts = options.drafts === undefined ? sessionDraftStorage() : (options.drafts ?? undefined);
    builderRef.current = new TranscriptBuilder(chat, client, { messages, drafts });
  }
  const builder = builderRef.current;
  useLayoutEffect(() => {
    builder.setChat(chat);
  });
  const chatMessages = chat.messages;
  const version = useSyncExternalStore(builder.subscribe, builder.getVersion, builder.getVersion);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new version asks for a build though no message changed.
  const transcript = useMemo(() => {
    const built = builder.build(chatMessages);
    return { messages: built, elicitations: builder.elicitationBlocks() };
  }, [builder, chatMessages, version]);
  // Outputs seen while building settle their stores after render, never during it.
  useLayoutEffect(() => {
    builder.flush();
  });
  return transcript;
}

/** An approval block's current state; re-renders only when that approval changes. */
export function useApproval(block: ApprovalBlock): ApprovalState {
  return useSyncExternalStore(block.subscribe, block.getSnapshot, block.getSnapshot);
}
