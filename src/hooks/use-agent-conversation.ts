"use client";

import { useChat } from "@ai-sdk/react";
import type { ChatOnFinishCallback, ChatStatus, UIMessage } from "ai";
import { useEffect, useRef, useState } from "react";
import type { ConversationTransport } from "@/lib/prepick/transport/conversation-transport";
import { type RunFailure, readRunFailure } from "@/lib/prepick/transport/run-failure";
import { messageOf, toToolCallFailure } from "@/lib/prepick/transport/tool-call-error";
import type { DraftStorage } from "./draft-storage";
import type { PendingCallsSnapshot } from "./pending-calls-store";
import type { PrepickMessages, PrepickMessagesInput } from "./prepick-messages";
import { usePrepickMessages } from "./prepick-messages-context";
import { type ChatTranscript, useChatTranscript } from "./use-chat-transcript";
import { useWaitingCalls } from "./use-waiting-calls";

/** What {@link useAgentConversation} talks to and how. */
export interface UseAgentConversationOptions {
  /** `AgentChatTransport` (the Prepick server) or `AgUiChatTransport` (an AG-UI agent). */
  transport: ConversationTransport;
  /** The conversation: the chat id, which is the thread id. A new one when left out. */
  threadId?: string;
  /**
   * Whether to read the thread through the transport first (and follow its run if it is still
   * going). True when a `threadId` is given; pass false for a conversation started in this page,
   * which the server does not hold until its first message. Read when the conversation mounts, and
   * again when `threadId` moves to another one.
   */
  load?: boolean;
  /**
   * The inbox (`usePendingCalls()`): a call this conversation shows waiting, seen in the inbox and
   * gone from it, was settled elsewhere (the inbox, another tab), and the conversation follows
   * its run again. A run parked on the person holds no connection until then.
   */
  inbox?: Pick<PendingCallsSnapshot, "calls" | "status">;
  /** Sentences in the app's language, laid over the nearest `PrepickMessagesProvider`'s. */
  messages?: PrepickMessagesInput;
  /** Where pending question sets keep their drafts (`useChatTranscript`'s `drafts`). */
  drafts?: DraftStorage | null;
  /** Called when a reply ends, however it ended (the AI SDK's `onFinish`). */
  onFinish?: ChatOnFinishCallback<UIMessage>;
  /** Called with the conversation's status whenever it changes, and once when it mounts. */
  onStatusChange?: (status: ConversationStatus) => void;
}

/**
 * Where the conversation stands: the AI SDK chat's status, or `waiting` while its latest turn
 * waits on the person (a question set or an approval), when a new message would be refused.
 */
export type ConversationStatus = ChatStatus | "waiting";

/** Why the conversation shows an error, and the sentence the person reads. */
export interface ConversationError {
  /**
   * `not-sent`: a message never reached the agent (or was refused); it is back in the draft and
   * `retry()` sends it again. `load`: the thread could not be read. `reply`: the reply failed.
   */
  kind: "not-sent" | "load" | "reply";
  /** What went wrong, in the person's words and language. */
  message: string;
  /** For a reply the run's failure ended: its code and the id the server's log holds it under. */
  failure?: RunFailure;
}

/** A conversation with an agent: its transcript, where it stands, the composer's draft and the actions. */
export interface AgentConversation extends ChatTranscript {
  /** The chat id (the thread id). */
  id: string;
  /** Where the conversation stands. */
  status: ConversationStatus;
  /** What went wrong, until the person sends again or clears it. */
  error: ConversationError | undefined;
  /** The composer's text; a message that did not get through comes back here. */
  draft: string;
  /** Sets the composer's text. */
  setDraft: (text: string) => void;
  /** Sends a message (the draft, trimmed, when left out; nothing when empty) and empties the draft. */
  send: (text?: string) => void;
  /** Stops the reply, and cancels the run where it runs (the transport's `cancel`). */
  stop: () => void;
  /** Sends the message that did not get through again. */
  retry: () => void;
  /** Clears the error. */
  clearError: () => void;
}

/** The text of a person's message, as they typed it. */
function textOf(message: UIMessage): string {
  return message.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("");
}

/** Why a reply stopped, in the person's words: the server's failure by its code, or the connection. */
function replyError(error: Error, { chat }: PrepickMessages): ConversationError {
  const failure = readRunFailure(error);
  return failure
    ? { kind: "reply", message: chat.runFailed(failure), failure }
    : { kind: "reply", message: chat.replyFailed(error.message) };
}

/** Why a message did not get through, in the person's words: offline, or refused by the server. */
function notSentSentence(error: unknown, { composer }: PrepickMessages): string {
  const failure = toToolCallFailure(error);
  return failure.kind === "network" ? composer.notSent(failure.error) : composer.refused(failure.error);
}

/** What the hook keeps of one conversation; a new chat id starts afresh. */
interface ConversationLocal {
  chatId: string;
  draft: string;
  /** The sentence for a message that did not get through, now back in the draft. */
  unsent?: string;
  /** Why the thread could not be read. */
  loadError?: string;
}

/**
 * A whole conversation with an agent over either transport, as the `AgentChat` block runs it: it
 * reads the thread, then follows its run if it is still going; follows the run again when a call
 * it shows waiting was settled elsewhere (given the `inbox`); puts a message that never reached
 * the agent back in the draft with a sentence saying why; and makes Stop cancel the run, not
 * only the stream the page reads. It returns what a UI renders: the transcript (blocks, question
 * sets and approvals with their state), the status, the error, the draft and the actions.
 */
export function useAgentConversation(options: UseAgentConversationOptions): AgentConversation {
  const { transport, threadId, inbox } = options;
  const messages = usePrepickMessages(options.messages);
  const chat = useChat({
    ...(threadId !== undefined ? { id: threadId } : {}),
    transport,
    onFinish: options.onFinish,
  });
  const transcript = useChatTranscript(chat, {
    transport,
    messages,
    ...(options.drafts !== undefined ? { drafts: options.drafts } : {}),
  });
  const waitingIds = useWaitingCalls(transcript.messages);
  const status: ConversationStatus = waitingIds !== "" ? "waiting" : chat.status;

  const [stored, setLocal] = useState<ConversationLocal>({ chatId: chat.id, draft: "" });
  const local = stored.chatId === chat.id ? stored : { chatId: chat.id, draft: "" };
  const update = (change: Partial<ConversationLocal>) =>
    setLocal((current) => ({ ...(current.chatId === chat.id ? current : local), ...change }));

  // The effects reach the latest chat and options without running again when their objects change.
  const latest = useRef({ chat, messages, options });
  latest.current = { chat, messages, options };
  // Whether to read the thread: decided when the conversation mounts (or the hook moves to it).
  const reads = useRef({ chatId: "", load: false });
  if (reads.current.chatId !== chat.id)
    reads.current = { chatId: chat.id, load: options.load ?? threadId !== undefined };

  const chatId = chat.id;
  useEffect(() => {
    if (reads.current.chatId !== chatId || !reads.current.load) return;
    let cancelled = false;
    transport.loadThread(chatId).then(
      (loaded) => {
        if (cancelled || loaded.length === 0) return;
        const current = latest.current.chat;
        current.setMessages(loaded);
        // Follows a run that is still going from where it stands; a parked one waits for the person.
        if (transport.runStatus(chatId) === "running") void current.resumeStream();
      },
      (error: unknown) => {
        if (!cancelled) setLocal((current) => ({ ...current, chatId, loadError: messageOf(error) }));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [transport, chatId]);

  // A call shown waiting here, seen in the inbox and gone from it, was settled elsewhere: the run
  // goes on, and the conversation follows it.
  const seen = useRef({ chatId, ids: new Set<string>() });
  if (seen.current.chatId !== chatId) seen.current = { chatId, ids: new Set() };
  const inInbox = (inbox?.calls ?? [])
    .filter(({ call }) => call.threadId === chatId)
    .map(({ call }) => call.id);
  for (const id of inInbox) seen.current.ids.add(id);
  const settledElsewhere =
    inbox?.status === "live" &&
    waitingIds.split(" ").some((id) => id !== "" && seen.current.ids.has(id) && !inInbox.includes(id));
  useEffect(() => {
    const current = latest.current.chat;
    if (settledElsewhere && current.status !== "submitted" && current.status !== "streaming") {
      void current.resumeStream();
    }
  }, [settledElsewhere]);

  // A message the server never took is not part of the conversation: it leaves the transcript and
  // goes back into the draft, with a sentence saying why.
  const failedSend = chat.status === "error" && chat.messages.at(-1)?.role === "user";
  useEffect(() => {
    if (!failedSend) return;
    const { chat: current, messages: words } = latest.current;
    const last = current.messages.at(-1);
    if (last?.role !== "user") return;
    const unsent = notSentSentence(current.error, words);
    setLocal((kept) => ({ ...kept, chatId: current.id, unsent, draft: textOf(last) }));
    current.setMessages(current.messages.slice(0, -1));
    current.clearError();
  }, [failedSend]);

  useEffect(() => latest.current.options.onStatusChange?.(status), [status]);

  const send = (text = local.draft.trim()) => {
    if (text === "") return;
    update({ unsent: undefined, draft: "" });
    if (chat.error) chat.clearError();
    void chat.sendMessage({ text });
  };
  const error: ConversationError | undefined =
    local.unsent !== undefined
      ? { kind: "not-sent", message: local.unsent }
      : local.loadError !== undefined
        ? { kind: "load", message: messages.chat.loadFailed(local.loadError) }
        : chat.error && !failedSend
          ? replyError(chat.error, messages)
          : undefined;

  return {
    ...transcript,
    id: chat.id,
    status,
    error,
    draft: local.draft,
    setDraft: (draft) => update({ draft }),
    send,
    stop: () => {
      void chat.stop();
      void transport.cancel(chatId);
    },
    retry: () => send(),
    clearError: () => {
      update({ unsent: undefined, loadError: undefined });
      chat.clearError();
    },
  };
}
