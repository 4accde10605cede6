"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { ChatApproval } from "@/components/ui/chat-approval";
import { ChatComposer } from "@/components/ui/chat-composer";
import { ChatElicitation } from "@/components/ui/chat-elicitation";
import type { ChatBlockRenderer } from "@/components/ui/chat-message";
import { ChatTranscript } from "@/components/ui/chat-transcript";
import { sessionDraftStorage } from "@/hooks/draft-storage";
import type { PendingCallsSnapshot } from "@/hooks/pending-calls-store";
import { usePrepickMessages } from "@/hooks/prepick-messages-context";
import { savesDrafts, serverDraftStorage } from "@/hooks/server-drafts";
import { type ConversationStatus, useAgentConversation } from "@/hooks/use-agent-conversation";
import { useConnection } from "@/hooks/use-connection";
import type { ConversationTransport } from "@/lib/prepick/transport/conversation-transport";
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
 * One conversation of the agent chat: the transcript with the agent's questions and approvals
 * inline, "Show earlier messages" for a long one, and the composer. It renders
 * `useAgentConversation`, which holds the conversation's behaviour: it loads `threadId` on mount
 * (unless `fresh`), follows the run when a call it shows was settled elsewhere, puts a message
 * that did not get through back in the box, and makes Stop cancel the run. Over either transport.
 */
function AgentConversation({
  transport,
  threadId,
  fresh = false,
  title,
  actions,
  suggestions = [],
  inbox,
  onActivity,
  onStatus,
}: {
  /** The transport of the page: `AgentChatTransport`, or `AgUiChatTransport` for an AG-UI agent. */
  transport: ConversationTransport;
  /** The conversation; a new one when left out. */
  threadId?: string;
  /** Started in this page: nothing to load until its first message. */
  fresh?: boolean;
  /** The heading above it. */
  title: string;
  /** Buttons for the header's end (the page's conversations and inbox). */
  actions?: React.ReactNode;
  /** Messages offered as one-click starts while the conversation is empty. */
  suggestions?: readonly string[];
  /** The inbox (`usePendingCalls()`), so a call settled there moves this conversation on. */
  inbox?: Pick<PendingCallsSnapshot, "calls" | "status">;
  /** Called when a reply ends (the conversation list may have changed). */
  onActivity?: () => void;
  /** Hears where the conversation stands: `waiting` for the person, else the chat's status. */
  onStatus?: (status: ConversationStatus) => void;
}) {
  const messages = usePrepickMessages();
  // Drafts of the agent's questions are kept on the server too, for the person's other devices
  // (the call's own link resumes them), where the transport's server keeps them.
  const client = transport.client;
  const drafts = React.useMemo(
    () => (savesDrafts(client) ? serverDraftStorage(client, sessionDraftStorage()) : undefined),
    [client],
  );
  const conversation = useAgentConversation({
    transport,
    ...(drafts ? { drafts } : {}),
    ...(threadId !== undefined ? { threadId } : {}),
    load: !fresh && threadId !== undefined,
    messages,
    ...(inbox ? { inbox } : {}),
    ...(onActivity ? { onFinish: onActivity } : {}),
    ...(onStatus ? { onStatusChange: onStatus } : {}),
  });
  const { status, error, draft } = conversation;
  const connection = useConnection(inbox?.status);
  const waiting = status === "waiting";
  const streaming = status === "submitted" || status === "streaming";

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
        messages={conversation.messages}
        renderBlock={renderBlock}
        hasOlder={conversation.hasOlder}
        loadingOlder={conversation.loadingOlder}
        onLoadOlder={conversation.loadOlder}
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
                    onClick={() => conversation.send(suggestion)}
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
        {/* Always in the page (empty while connected), so a screen reader hears it when it speaks. */}
        <p
          role="status"
          data-slot="agent-chat-connection"
          data-state={connection}
          className={cn("rounded-md border bg-muted px-3 py-2 text-sm", connection === "online" && "sr-only")}
        >
          {connection === "offline"
            ? messages.chat.offline
            : connection === "back"
              ? messages.chat.reconnected
              : null}
        </p>
        {error ? (
          <div
            role="alert"
            data-slot="agent-chat-error"
            data-kind={error.kind === "not-sent" ? "not-sent" : undefined}
            className="flex flex-wrap items-center gap-3 rounded-md border border-destructive/40 px-3 py-2 text-destructive text-sm"
          >
            <span className="min-w-0 flex-1">{error.message}</span>
            {error.kind === "not-sent" ? (
              <Button
                type="button"
                size="sm"
                variant="outline"
                data-slot="agent-chat-retry"
                disabled={draft.trim() === "" || streaming}
                onClick={conversation.retry}
              >
                {messages.composer.retry}
              </Button>
            ) : null}
            <Button type="button" size="sm" variant="ghost" onClick={conversation.clearError}>
              {messages.composer.dismiss}
            </Button>
          </div>
        ) : null}
        <ChatComposer
          value={draft}
          onValueChange={conversation.setDraft}
          onSend={conversation.send}
          onStop={conversation.stop}
          streaming={streaming}
          disabled={waiting}
          placeholder={waiting ? messages.composer.waitingPlaceholder : messages.composer.placeholder}
        />
      </div>
    </div>
  );
}

export { AgentConversation };
