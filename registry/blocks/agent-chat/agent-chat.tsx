"use client";

import { useChat } from "@ai-sdk/react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { ChatApproval } from "@/components/ui/chat-approval";
import { ChatComposer } from "@/components/ui/chat-composer";
import { ChatElicitation } from "@/components/ui/chat-elicitation";
import type { ChatBlockRenderer } from "@/components/ui/chat-message";
import { ChatTranscript } from "@/components/ui/chat-transcript";
import type { PrepickMessages, PrepickMessagesInput } from "@/hooks/prepick-messages";
import { PrepickMessagesProvider, usePrepickMessages } from "@/hooks/prepick-messages-context";
import type { TranscriptMessage } from "@/hooks/transcript-types";
import { useChatTranscript } from "@/hooks/use-chat-transcript";
import { AgentChatTransport, toToolCallFailure } from "@/lib/prepick/transport";
import { cn } from "@/lib/utils";

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

/**
 * Whether the latest turn waits for the person (a question set or an approval): the run is
 * parked, so a new message would be refused until they answer.
 */
function useWaitingForPerson(messages: readonly TranscriptMessage[]): boolean {
  const last = messages.at(-1);
  const blocks = React.useMemo(
    () =>
      last?.role === "assistant"
        ? last.blocks.filter((block) => block.type === "elicitation" || block.type === "approval")
        : [],
    [last],
  );
  const subscribe = React.useCallback(
    (listener: () => void) => {
      const unsubscribes = blocks.map((block) => block.subscribe(listener));
      return () => {
        for (const unsubscribe of unsubscribes) unsubscribe();
      };
    },
    [blocks],
  );
  const read = () =>
    blocks.some((block) =>
      block.type === "elicitation"
        ? block.getSnapshot().phase === "pending"
        : block.type === "approval" && block.getSnapshot().status !== "settled",
    );
  return React.useSyncExternalStore(subscribe, read, read);
}

/** The text of a person's message, as they typed it. */
function textOf(message: { parts: readonly { type: string; text?: string }[] }): string {
  return message.parts.flatMap((part) => (part.type === "text" && part.text ? [part.text] : [])).join("");
}

/** Why a message did not get through, in the person's words: offline, or refused by the server. */
function notSentSentence(error: unknown, { composer }: PrepickMessages): string {
  const failure = toToolCallFailure(error);
  return failure.kind === "network" ? composer.notSent(failure.error) : composer.refused(failure.error);
}

/**
 * A whole agent chat page on the reference server: the conversation, with the agent's questions
 * and approval requests inline in the turn that asked, and the composer. Give it a `threadId` to
 * reload a conversation: a pending question comes back answerable, a settled one as its outcome.
 */
function AgentChat({
  api,
  agent,
  actorId,
  threadId,
  title,
  suggestions = [],
  messages: own,
  className,
  ...props
}: React.ComponentProps<"div"> & {
  /** The server's origin, e.g. `http://localhost:3000`; the page's own origin when left out. */
  api?: string;
  /** The agent to talk to; the server's default when left out. */
  agent?: string;
  /** Who is acting (sent as `x-actor-id`); the server's cookie identifies the browser otherwise. */
  actorId?: string;
  /** The conversation to continue (loaded on mount); a new one when left out. */
  threadId?: string;
  /** The heading above the conversation. */
  title?: string;
  /** Messages offered as one-click starts while the conversation is empty. */
  suggestions?: readonly string[];
  /** Every word the chat shows, laid over the nearest `PrepickMessagesProvider`'s (or English). */
  messages?: PrepickMessagesInput;
}) {
  const messages = usePrepickMessages(own);
  const transport = React.useMemo(
    () =>
      new AgentChatTransport({
        ...(api !== undefined ? { api } : {}),
        ...(agent !== undefined ? { agent } : {}),
        ...(actorId !== undefined ? { actorId } : {}),
      }),
    [api, agent, actorId],
  );
  const chat = useChat({ ...(threadId !== undefined ? { id: threadId } : {}), transport });
  const transcript = useChatTranscript(chat, { transport, messages });
  const waiting = useWaitingForPerson(transcript.messages);
  const streaming = chat.status === "submitted" || chat.status === "streaming";
  const [loadError, setLoadError] = React.useState<string>();
  // The box's text, kept here so a message that did not get through can go back into it.
  const [draft, setDraft] = React.useState("");
  const [unsent, setUnsent] = React.useState<string>();

  // The effect must reach the latest chat without re-running when its object changes.
  const chatRef = React.useRef(chat);
  chatRef.current = chat;
  React.useEffect(() => {
    if (threadId === undefined) return;
    let cancelled = false;
    transport.loadThread(threadId).then(
      (loaded) => {
        if (cancelled || loaded.length === 0) return;
        chatRef.current.setMessages(loaded);
        // Follows a run that is still going, or parked on a question, from where it stands.
        void chatRef.current.resumeStream();
      },
      (error: unknown) => {
        if (!cancelled) setLoadError(error instanceof Error ? error.message : String(error));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [transport, threadId]);

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
        ? messages.chat.replyFailed(chat.error.message)
        : undefined);

  return (
    <PrepickMessagesProvider messages={messages}>
      <div
        data-slot="agent-chat"
        data-status={waiting ? "waiting" : chat.status}
        className={cn("flex h-dvh flex-col bg-background text-foreground", className)}
        {...props}
      >
        <header data-slot="agent-chat-header" className="flex items-center gap-3 border-b px-4 py-3">
          <h1 className="font-semibold text-base">{title ?? messages.chat.title}</h1>
          <span className="text-muted-foreground text-xs" aria-live="polite">
            {waiting ? messages.chat.waiting : streaming ? messages.chat.working : null}
          </span>
        </header>
        <ChatTranscript
          messages={transcript.messages}
          renderBlock={renderBlock}
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
    </PrepickMessagesProvider>
  );
}

export { AgentChat };
