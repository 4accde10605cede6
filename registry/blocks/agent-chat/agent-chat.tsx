"use client";

import { useChat } from "@ai-sdk/react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { ChatApproval } from "@/components/ui/chat-approval";
import { ChatComposer } from "@/components/ui/chat-composer";
import { ChatElicitation } from "@/components/ui/chat-elicitation";
import type { ChatBlockRenderer } from "@/components/ui/chat-message";
import { ChatTranscript } from "@/components/ui/chat-transcript";
import type { TranscriptMessage } from "@/hooks/transcript-types";
import { useChatTranscript } from "@/hooks/use-chat-transcript";
import { AgentChatTransport } from "@/lib/prepick/transport";
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
  title = "Agent",
  suggestions = [],
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
}) {
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
  const transcript = useChatTranscript(chat, { transport });
  const waiting = useWaitingForPerson(transcript.messages);
  const streaming = chat.status === "submitted" || chat.status === "streaming";
  const [loadError, setLoadError] = React.useState<string>();

  // The effect must reach the latest chat without re-running when its object changes.
  const chatRef = React.useRef(chat);
  chatRef.current = chat;
  React.useEffect(() => {
    if (threadId === undefined) return;
    let cancelled = false;
    transport.loadThread(threadId).then(
      (messages) => {
        if (cancelled || messages.length === 0) return;
        chatRef.current.setMessages(messages);
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
    void chat.sendMessage({ text });
  };
  // Stop ends the run on the server too, not only the stream this page reads.
  const stop = () => {
    const runId = transport.run(chat.id)?.runId;
    void chat.stop();
    if (runId) void transport.client.cancel(runId);
  };
  const error = loadError ?? chat.error?.message;

  return (
    <div
      data-slot="agent-chat"
      data-status={waiting ? "waiting" : chat.status}
      className={cn("flex h-dvh flex-col bg-background text-foreground", className)}
      {...props}
    >
      <header data-slot="agent-chat-header" className="flex items-center gap-3 border-b px-4 py-3">
        <h1 className="font-semibold text-base">{title}</h1>
        <span className="text-muted-foreground text-xs" aria-live="polite">
          {waiting ? "Waiting for your answer" : streaming ? "Working…" : null}
        </span>
      </header>
      <ChatTranscript
        messages={transcript.messages}
        renderBlock={renderBlock}
        empty={
          <div data-slot="agent-chat-empty" className="flex flex-col items-center gap-4 py-16 text-center">
            <p className="text-muted-foreground text-sm">
              Say what you need. If the agent has questions, it asks them first, with its own picks
              pre-selected.
            </p>
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
            className="flex items-center gap-3 rounded-md border border-destructive/40 px-3 py-2 text-destructive text-sm"
          >
            <span className="flex-1">{error}</span>
            <Button
              type="button"
              size="sm"
              variant="ghost"
              onClick={() => {
                setLoadError(undefined);
                chat.clearError();
              }}
            >
              Dismiss
            </Button>
          </div>
        ) : null}
        <ChatComposer
          onSend={send}
          onStop={stop}
          streaming={streaming}
          disabled={waiting}
          placeholder={waiting ? "Answer the agent above to continue" : "Send a message…"}
        />
      </div>
    </div>
  );
}

export { AgentChat };
