"use client";

import { useChat } from "@ai-sdk/react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { ChatApproval } from "@/components/ui/chat-approval";
import { ChatComposer } from "@/components/ui/chat-composer";
import { ChatElicitation } from "@/components/ui/chat-elicitation";
import type { ChatBlockRenderer } from "@/components/ui/chat-message";
import { ChatTranscript } from "@/components/ui/chat-transcript";
import type { PendingCallItem, PendingCallsStatus } from "@/hooks/pending-calls-store";
import type { PrepickMessages } from "@/hooks/prepick-messages";
import { usePrepickMessages } from "@/hooks/prepick-messages-context";
import { useChatTranscript } from "@/hooks/use-chat-transcript";
import { type AgentChatTransport, readRunFailure, toToolCallFailure } from "@/lib/prepick/transport";
import { useWaitingCalls } from "./use-waiting-calls";

/**
 * Questions and approvals render inline where the agent asked, and take the focus as they appear:
 * a question set so its hotkeys work at once, an approval so the person meets it first.
 */
const renderBlock: ChatBlockRenderer = (block) =>
  block.type === "elicitation" ? (
    <ChatElicitation block={block} autoFocus />
  ) : block.type === "approval" ? (
    <ChatApproval block={block} autoFocus />
  ) : undefined;

/** The text of a person's message, as they typed it. */
function textOf(message: { parts: readonly { type: string; text?: string }[] }): string {
  return message.parts.flatMap((part) => (part.type === "text" && part.text ? [part.text] : [])).join("");
}

/** Why a message did not get through, in the person's words: offline, or refused by the server. */
function notSentSentence(error: unknown, { composer }: PrepickMessages): string {
  const failure = toToolCallFailure(error);
  return failure.kind === "network" ? composer.notSent(failure.error) : composer.refused(failure.error);
}

/** Why a reply stopped, in the person's words: the server's failure by its code, or the connection. */
function replyError(error: Error, { chat }: PrepickMessages): string {
  const failure = readRunFailure(error);
  return failure ? chat.runFailed(failure) : chat.replyFailed(error.message);
}

/**
 * One conversation of the agent chat: the transcript with the agent's questions and approvals
 * inline, "Show earlier messages" for a long one, and the composer. It loads `threadId` on mount.
 *
 * A run parked on the person holds no connection: the page follows it again when the person
 * answers here, or when the inbox feed says a call this page shows waiting was settled elsewhere
 * (the inbox, another tab). A browser keeps six connections to a server over HTTP/1.1 for all its
 * tabs, so a stream held per waiting tab would leave a few tabs unable to send anything.
 */
function AgentConversation({
  transport,
  threadId,
  fresh = false,
  title,
  actions,
  suggestions = [],
  pending,
  pendingStatus,
  onActivity,
  onStatus,
}: {
  /** The transport of the page (its client also reads the inbox). */
  transport: AgentChatTransport;
  /** The conversation. */
  threadId: string;
  /** Started in this page: nothing to load until its first message. */
  fresh?: boolean;
  /** The heading above it. */
  title: string;
  /** Buttons for the header's end (the page's conversations and inbox). */
  actions?: React.ReactNode;
  /** Messages offered as one-click starts while the conversation is empty. */
  suggestions?: readonly string[];
  /** The inbox's waiting calls (`usePendingCalls().calls`). */
  pending: readonly PendingCallItem[];
  /** The inbox feed's status. */
  pendingStatus: PendingCallsStatus;
  /** Called when a reply ends (the conversation list may have changed). */
  onActivity?: () => void;
  /** Hears where the conversation stands: `waiting` for the person, else the chat's status. */
  onStatus?: (status: string) => void;
}) {
  const messages = usePrepickMessages();
  const chat = useChat({ id: threadId, transport });
  const transcript = useChatTranscript(chat, { transport, messages });
  const waitingIds = useWaitingCalls(transcript.messages);
  const waiting = waitingIds !== "";
  const streaming = chat.status === "submitted" || chat.status === "streaming";
  const [loadError, setLoadError] = React.useState<string>();
  // The box's text, kept here so a message that did not get through can go back into it.
  const [draft, setDraft] = React.useState("");
  const [unsent, setUnsent] = React.useState<string>();

  // The effects must reach the latest chat without re-running when its object changes.
  const chatRef = React.useRef(chat);
  chatRef.current = chat;
  // Read once, at mount: a conversation that gets its first message here stays as it is.
  const freshRef = React.useRef(fresh);
  React.useEffect(() => {
    if (freshRef.current) return;
    let cancelled = false;
    transport.loadThread(threadId).then(
      (loaded) => {
        if (cancelled || loaded.length === 0) return;
        chatRef.current.setMessages(loaded);
        // Follows a run that is still going from where it stands; a parked one waits for the person.
        if (transport.run(threadId)?.fold.status === "running") void chatRef.current.resumeStream();
      },
      (error: unknown) => {
        if (!cancelled) setLoadError(error instanceof Error ? error.message : String(error));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [transport, threadId]);

  // A call this page shows waiting, seen in the inbox and gone from it, was settled elsewhere: the
  // run goes on, and the page follows it.
  const seenRef = React.useRef(new Set<string>());
  const inInbox = pending.filter(({ call }) => call.threadId === threadId).map(({ call }) => call.id);
  for (const id of inInbox) seenRef.current.add(id);
  const settledElsewhere =
    pendingStatus === "live" &&
    waitingIds.split(" ").some((id) => id !== "" && seenRef.current.has(id) && !inInbox.includes(id));
  React.useEffect(() => {
    const current = chatRef.current;
    if (settledElsewhere && current.status !== "submitted" && current.status !== "streaming") {
      void current.resumeStream();
    }
  }, [settledElsewhere]);

  const status = waiting ? "waiting" : chat.status;
  React.useEffect(() => onStatus?.(status), [onStatus, status]);

  // A reply ended: a new conversation is on the server now, or a listed one moved up.
  const onActivityRef = React.useRef(onActivity);
  onActivityRef.current = onActivity;
  React.useEffect(() => {
    if (!streaming) void onActivityRef.current?.();
  }, [streaming]);

  const send = (text: string) => {
    setUnsent(undefined);
    setDraft("");
    if (chat.error) chat.clearError();
    void chat.sendMessage({ text });
  };

  // A message the server never took is not part of the conversation: it leaves the transcript and
  // goes back into the box, with a sentence saying why and a Retry.
  const failedSend = chat.status === "error" && chat.messages.at(-1)?.role === "user";
  const messagesRef = React.useRef(messages);
  messagesRef.current = messages;
  React.useEffect(() => {
    if (!failedSend) return;
    const current = chatRef.current;
    const last = current.messages.at(-1);
    if (last?.role !== "user") return;
    setUnsent(notSentSentence(current.error, messagesRef.current));
    setDraft(textOf(last));
    current.setMessages(current.messages.slice(0, -1));
    current.clearError();
  }, [failedSend]);
  // Stop ends the run on the server too, not only the stream this page reads.
  const stop = () => {
    const runId = transport.run(chat.id)?.runId;
    void chat.stop();
    if (runId) void transport.client.cancel(runId);
  };
  const error =
    unsent ??
    (loadError !== undefined
      ? messages.chat.loadFailed(loadError)
      : chat.error && !failedSend
        ? replyError(chat.error, messages)
        : undefined);

  return (
    <div data-slot="agent-chat-conversation" className="flex min-h-0 min-w-0 flex-1 flex-col">
      <header data-slot="agent-chat-header" className="flex items-center gap-3 border-b px-4 py-3">
        <h1 className="min-w-0 truncate font-semibold text-base">{title}</h1>
        <span className="text-muted-foreground text-xs" aria-live="polite">
          {waiting ? messages.chat.waiting : streaming ? messages.chat.working : null}
        </span>
        {actions ? <div className="ms-auto flex shrink-0 items-center gap-1">{actions}</div> : null}
      </header>
      <ChatTranscript
        messages={transcript.messages}
        renderBlock={renderBlock}
        hasOlder={transcript.hasOlder}
        loadingOlder={transcript.loadingOlder}
        onLoadOlder={transcript.loadOlder}
        empty={
          <div data-slot="agent-chat-empty" className="flex flex-col items-center gap-4 py-16 text-center">
            <p className="text-muted-foreground text-sm">{messages.chat.start}</p>
            {suggestions.length > 0 ? (
              <div className="flex flex-wrap justify-center gap-2">
                {suggestions.map((suggestion) => (
                  <Button
                    key={suggestion}
                    type="button"
                    size="sm"
                    variant="outline"
                    onClick={() => send(suggestion)}
                  >
                    {suggestion}
                  </Button>
                ))}
              </div>
            ) : null}
          </div>
        }
      />
      <div data-slot="agent-chat-footer" className="mx-auto flex w-full max-w-3xl flex-col gap-2 px-4 pb-4">
        {error ? (
          <div
            role="alert"
            data-slot="agent-chat-error"
            data-kind={unsent !== undefined ? "not-sent" : undefined}
            className="flex flex-wrap items-center gap-3 rounded-md border border-destructive/40 px-3 py-2 text-destructive text-sm"
          >
            <span className="min-w-0 flex-1">{error}</span>
            {unsent !== undefined ? (
              <Button
                type="button"
                size="sm"
                variant="outline"
                data-slot="agent-chat-retry"
                disabled={draft.trim() === "" || streaming}
                onClick={() => send(draft.trim())}
              >
                {messages.composer.retry}
              </Button>
            ) : null}
            <Button
              type="button"
              size="sm"
              variant="ghost"
              onClick={() => {
                setUnsent(undefined);
                setLoadError(undefined);
                chat.clearError();
              }}
            >
              {messages.composer.dismiss}
            </Button>
          </div>
        ) : null}
        <ChatComposer
          value={draft}
          onValueChange={setDraft}
          onSend={send}
          onStop={stop}
          streaming={streaming}
          disabled={waiting}
          placeholder={waiting ? messages.composer.waitingPlaceholder : messages.composer.placeholder}
        />
      </div>
    </div>
  );
}

export { AgentConversation };
