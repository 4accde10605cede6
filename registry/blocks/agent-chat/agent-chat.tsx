"use client";

import * as React from "react";
import type { PrepickMessagesInput } from "@/hooks/prepick-messages";
import { PrepickMessagesProvider, usePrepickMessages } from "@/hooks/prepick-messages-context";
import { usePendingCalls } from "@/hooks/use-pending-calls";
import { useThreads } from "@/hooks/use-threads";
import { AgentChatTransport } from "@/lib/prepick/transport";
import { cn } from "@/lib/utils";
import { AgentCall } from "./agent-call";
import { useAgentChatNav } from "./agent-chat-nav";
import { AgentConversation } from "./agent-conversation";

/**
 * A new thread id. `crypto.randomUUID` exists only in secure contexts, and a page may be opened
 * over plain HTTP on a LAN address; `getRandomValues` works everywhere.
 */
function newThreadId(): string {
  if (typeof crypto.randomUUID === "function" && globalThis.isSecureContext) return crypto.randomUUID();
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) =>
    byte.toString(16).padStart(2, "0"),
  ).join("");
}

/**
 * A whole agent chat page on the reference server: the conversation, with the agent's questions
 * and approval requests inline in the turn that asked, and the composer; beside it the person's
 * conversations and an inbox of every call waiting for them, answerable in place (answering one
 * continues its conversation's run). Below `md` the conversations and the inbox open in a dialog.
 *
 * Give it a `threadId` to open a conversation (a pending question comes back answerable, a
 * settled one as its outcome) and `onThreadChange` to hear when the person opens another one or
 * starts afresh, e.g. to put it in the address so Back and Forward move between conversations.
 * Give it a `callId` (an app routes `/answer/:callId`, the link webhooks send, to it) to open just
 * that call, answerable, with a way to its conversation.
 */
function AgentChat({
  api,
  agent,
  actorId,
  fetch: ownFetch,
  threadId: shown,
  callId,
  onThreadChange,
  navigation = true,
  title,
  suggestions = [],
  messages: own,
  className,
  ...props
}: React.ComponentProps<"div"> & {
  /** The server's origin, e.g. `http://localhost:3000`; the page's own origin when left out. */
  api?: string;
  /** The agent new conversations talk to; the server's default when left out. */
  agent?: string;
  /** Who is acting (sent as `x-actor-id`); the server's cookie identifies the browser otherwise. */
  actorId?: string;
  /** A fetch to reach the server with instead of the page's (a proxy's, or a stand-in in a story). */
  fetch?: typeof fetch;
  /** The conversation to show; a new one when left out. */
  threadId?: string;
  /**
   * One call to show instead of a conversation: its question set or approval, answerable, and a
   * way to its conversation (which then opens here, and `onThreadChange` hears of it).
   */
  callId?: string;
  /**
   * Called with the conversation the person opened or started, and once on mount with the one the
   * block started itself when `threadId` was left out (it is not on the server before its first
   * message, so leave `threadId` out again for it rather than passing it back). A conversation
   * opened from the call `callId` shows comes with its agent.
   */
  onThreadChange?: (threadId: string, agent?: string) => void;
  /** Whether to show the conversations and the inbox (leave them out when the page has its own). */
  navigation?: boolean;
  /** The heading above the conversation. */
  title?: string;
  /** Messages offered as one-click starts while the conversation is empty. */
  suggestions?: readonly string[];
  /** Every word the chat shows, laid over the nearest `PrepickMessagesProvider`'s (or English). */
  messages?: PrepickMessagesInput;
}) {
  const messages = usePrepickMessages(own);
  // The conversations started here, which the server does not hold until their first message.
  const started = React.useRef(new Set<string>());
  const [threadId, setThreadId] = React.useState(() => {
    if (shown !== undefined) return shown;
    const id = newThreadId();
    started.current.add(id);
    return id;
  });
  // The call shown instead of a conversation, until the person opens its conversation.
  const [shownCall, setShownCall] = React.useState(callId);
  const [lastCall, setLastCall] = React.useState(callId);
  if (callId !== lastCall) {
    setLastCall(callId);
    setShownCall(callId);
  }
  // The agents of conversations opened from a call, which the lists may not hold.
  const [callAgents, setCallAgents] = React.useState<Record<string, string>>({});
  // Where the open conversation stands (`data-status`: waiting, ready, submitted, streaming, error).
  const [status, setStatus] = React.useState("ready");
  // Bumped to load the open conversation again (it was answered from the inbox).
  const [reloads, setReloads] = React.useState(0);
  // A new `threadId` from the page opens that conversation.
  const [lastShown, setLastShown] = React.useState(shown);
  if (shown !== lastShown) {
    setLastShown(shown);
    if (shown !== undefined) setThreadId(shown);
  }

  // One transport per server, actor and agent; another fetch is another way to the server.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new fetch is the reason for new transports.
  const transports = React.useMemo(() => new Map<string, AgentChatTransport>(), [ownFetch]);
  const transportFor = (name: string | undefined) => {
    const key = `${api ?? ""} ${actorId ?? ""} ${name ?? ""}`;
    let transport = transports.get(key);
    if (!transport) {
      transport = new AgentChatTransport({
        ...(api !== undefined ? { api } : {}),
        ...(name !== undefined ? { agent: name } : {}),
        ...(actorId !== undefined ? { actorId } : {}),
        ...(ownFetch !== undefined ? { fetch: ownFetch } : {}),
      });
      transports.set(key, transport);
    }
    return transport;
  };
  // The inbox and the list read through the new conversations' transport, whichever thread is open.
  const { client } = transportFor(agent);
  const inbox = usePendingCalls({ client, messages });
  // Without the navigation the page shows its own list, if any: the block reads none.
  const threads = useThreads({ client, pending: inbox.calls, enabled: navigation });

  // A conversation opened or started: the list reads its first page again (it read it on mount).
  const { refresh } = threads;
  const listedFor = React.useRef(threadId);
  React.useEffect(() => {
    if (listedFor.current === threadId) return;
    listedFor.current = threadId;
    if (navigation) void refresh();
  }, [threadId, refresh, navigation]);

  // The page hears of the conversation the block started on its own, to keep it in its address.
  const onThreadChangeRef = React.useRef(onThreadChange);
  onThreadChangeRef.current = onThreadChange;
  // Not while a call is shown: its conversation is the one the page hears of, when opened.
  const initialThread = React.useRef(shown === undefined && callId === undefined ? threadId : undefined);
  React.useEffect(() => {
    if (initialThread.current !== undefined) onThreadChangeRef.current?.(initialThread.current);
  }, []);

  // A listed conversation is on the server: opening it reads it (again, when it is the open one).
  const open = (id: string, name?: string) => {
    started.current.delete(id);
    if (id === threadId) {
      setReloads((count) => count + 1);
      if (navigation) void refresh();
    } else setThreadId(id);
    onThreadChange?.(id, name);
  };
  const start = () => {
    const id = newThreadId();
    started.current.add(id);
    setThreadId(id);
    onThreadChange?.(id);
  };
  // A listed conversation talks to its own agent; a new one to `agent`.
  const threadAgent =
    callAgents[threadId] ??
    threads.threads.find((thread) => thread.id === threadId)?.agent ??
    inbox.calls.find(({ call }) => call.threadId === threadId)?.call.agent ??
    agent;
  const nav = useAgentChatNav({ inbox, threads, threadId, onOpen: open, onNew: start });

  return (
    <PrepickMessagesProvider messages={messages}>
      <div
        data-slot="agent-chat"
        data-status={status}
        className={cn("flex h-dvh bg-background text-foreground", className)}
        {...props}
      >
        {navigation ? nav.panel : null}
        {shownCall !== undefined ? (
          <AgentCall
            key={shownCall}
            client={client}
            callId={shownCall}
            onOpenThread={(id, name) => {
              setCallAgents((known) => ({ ...known, [id]: name }));
              setShownCall(undefined);
              open(id, name);
            }}
          />
        ) : (
          <AgentConversation
            key={`${threadId}:${reloads}`}
            transport={transportFor(threadAgent)}
            threadId={threadId}
            fresh={started.current.has(threadId)}
            title={title ?? messages.chat.title}
            actions={navigation ? nav.actions : undefined}
            suggestions={suggestions}
            inbox={inbox}
            onStatus={setStatus}
            onActivity={navigation ? refresh : undefined}
          />
        )}
      </div>
    </PrepickMessagesProvider>
  );
}

export { AgentChat };
