"use client";

import type { UIMessage } from "ai";
import { useCallback, useLayoutEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { ToolCallActions } from "@/lib/prepick/transport/tool-call-client";
import { type DraftStorage, sessionDraftStorage } from "./draft-storage";
import type { PrepickMessagesInput } from "./prepick-messages";
import { usePrepickMessages } from "./prepick-messages-context";
import { TranscriptBuilder, type TranscriptChat } from "./transcript-builder";
import type { ApprovalBlock, ApprovalState, ElicitationBlock, TranscriptMessage } from "./transcript-types";

/** A transport that reads a stored thread a page at a time, latest first (`AgentChatTransport`). */
export interface PagedThreadTransport {
  /** Whether the server holds messages of the chat older than those loaded. */
  hasOlder(chatId: string): boolean;
  /** The page of messages before the oldest loaded, in order; empty when none remain. */
  loadOlder(chatId: string): Promise<UIMessage[]>;
}

/** Where `useChatTranscript` sends answers, skips and approvals of provider-executed tool parts. */
export interface UseChatTranscriptOptions {
  /**
   * The chat's transport; its `client` carries answer, skip, approve and reject
   * (`AgentChatTransport` for the reference server, `AgUiChatTransport` for an AG-UI agent). A
   * transport that pages threads (`hasOlder`, `loadOlder`) gives the transcript `loadOlder`.
   */
  transport?: { client: ToolCallActions } & Partial<PagedThreadTransport>;
  /** A client, when there is no transport at hand. */
  client?: ToolCallActions;
  /**
   * Sentences in the app's language (errors, settled answers, and every word a question set's
   * form shows), laid over the nearest `PrepickMessagesProvider`'s or the English defaults. Read
   * when the hook mounts, and again for another chat id.
   */
  messages?: PrepickMessagesInput;
  /**
   * Where a pending question set's draft is kept, so a reload or a crash of the tab does not lose
   * it: the browser's session storage when left out, `null` for nowhere. Read when the hook mounts,
   * and again for another chat id.
   */
  drafts?: DraftStorage | null;
}

/** The conversation as a transcript of blocks. */
export interface ChatTranscript {
  /** Every message as blocks; a message keeps its object until it changes. */
  messages: readonly TranscriptMessage[];
  /** Every question set in the conversation, oldest first. */
  elicitations: readonly ElicitationBlock[];
  /** Whether the thread has older messages on the server than those shown. */
  hasOlder: boolean;
  /** Whether older messages are on their way. */
  loadingOlder: boolean;
  /**
   * Loads the page of messages before the first one shown and puts them first (the chat's
   * `setMessages`); does nothing when none remain or a load is under way. Rejects when the
   * server cannot be read, leaving the messages as they were.
   */
  loadOlder: () => Promise<void>;
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
  // One builder per conversation: another chat id (`useChat` with a new `id`) starts afresh.
  const builderRef = useRef<{ id: string | undefined; builder: TranscriptBuilder } | null>(null);
  if (builderRef.current === null || builderRef.current.id !== chat.id) {
    const drafts = options.drafts === undefined ? sessionDraftStorage() : (options.drafts ?? undefined);
    builderRef.current = { id: chat.id, builder: new TranscriptBuilder(chat, client, { messages, drafts }) };
  }
  const { builder } = builderRef.current;
  useLayoutEffect(() => {
    builder.setChat(chat);
  });
  const chatMessages = chat.messages;
  const version = useSyncExternalStore(builder.subscribe, builder.getVersion, builder.getVersion);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new version asks for a build though no message changed.
  const built = useMemo(() => {
    const built = builder.build(chatMessages);
    return { messages: built, elicitations: builder.elicitationBlocks() };
  }, [builder, chatMessages, version]);
  const older = useOlderMessages(chat, options.transport);
  const transcript = useMemo(() => ({ ...built, ...older }), [built, older]);
  // Outputs seen while building settle their stores after render, never during it.
  useLayoutEffect(() => {
    builder.flush();
  });
  return transcript;
}

/**
 * Older pages of a thread through a paging transport. Whether older messages remain is read from
 * the transport on each render: it changes only with the chat's messages (a thread loaded, a page
 * put first), and each of those renders.
 */
function useOlderMessages(
  chat: TranscriptChat,
  transport: Partial<PagedThreadTransport> | undefined,
): Pick<ChatTranscript, "hasOlder" | "loadingOlder" | "loadOlder"> {
  const [loadingOlder, setLoadingOlder] = useState(false);
  const latest = useRef({ chat, transport, loading: false });
  latest.current = { chat, transport, loading: latest.current.loading };
  const hasOlder = chat.id !== undefined && (transport?.hasOlder?.(chat.id) ?? false);
  const loadOlder = useCallback(async () => {
    const { chat, transport, loading } = latest.current;
    if (loading || chat.id === undefined || !transport?.loadOlder || !chat.setMessages) return;
    latest.current.loading = true;
    setLoadingOlder(true);
    try {
      const page = await transport.loadOlder(chat.id);
      // A message already shown (a turn that moved between pages) is kept once, where it is.
      latest.current.chat.setMessages?.((messages) => {
        const shown = new Set(messages.map((message) => message.id));
        return [...page.filter((message) => !shown.has(message.id)), ...messages];
      });
    } finally {
      latest.current.loading = false;
      setLoadingOlder(false);
    }
  }, []);
  return useMemo(() => ({ hasOlder, loadingOlder, loadOlder }), [hasOlder, loadingOlder, loadOlder]);
}

/** An approval block's current state; re-renders only when that approval changes. */
export function useApproval(block: ApprovalBlock): ApprovalState {
  return useSyncExternalStore(block.subscribe, block.getSnapshot, block.getSnapshot);
}
