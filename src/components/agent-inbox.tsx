"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import type { PendingCallItem } from "@/hooks/pending-calls-store";
import { cn } from "@/lib/utils";
import { ChatApproval } from "./chat-approval";
import { ChatElicitation } from "./chat-elicitation";
import { InboxCount } from "./inbox-count";

/** The calls of one conversation, in the order they started waiting. */
interface InboxGroup {
  threadId: string;
  agent: string;
  items: PendingCallItem[];
}

/** Groups the calls by conversation; a conversation sits where its oldest call does. */
function groupByThread(calls: readonly PendingCallItem[]): InboxGroup[] {
  const groups = new Map<string, InboxGroup>();
  for (const item of calls) {
    const group = groups.get(item.call.threadId);
    if (group) group.items.push(item);
    else
      groups.set(item.call.threadId, { threadId: item.call.threadId, agent: item.call.agent, items: [item] });
  }
  return [...groups.values()];
}

/** What a call asks, in a few words: the name of its disclosure button. */
function callSummary(item: PendingCallItem): string {
  const { posted, agent } = item.call;
  if (posted.kind === "approval-request") return `Approve ${posted.toolName}?`;
  const count = posted.request.questions.length;
  return `${count === 1 ? "1 question" : `${count} questions`} from ${agent}`;
}

function askedTime(askedAt: string): string {
  const date = new Date(askedAt);
  return Number.isNaN(date.getTime())
    ? askedAt
    : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** One waiting call: a disclosure button that opens the same form or card the transcript shows. */
function AgentInboxCall({
  item,
  open,
  onToggle,
}: {
  item: PendingCallItem;
  open: boolean;
  onToggle: () => void;
}) {
  const panelId = React.useId();
  const summary = callSummary(item);
  return (
    <li data-slot="agent-inbox-call" data-state={open ? "open" : "closed"} aria-label={summary}>
      <Button
        type="button"
        variant="ghost"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={onToggle}
        className="h-auto min-h-11 w-full justify-between gap-2 whitespace-normal px-3 py-2 text-left"
      >
        <span className="font-medium">{summary}</span>
        <span className="text-foreground/70 text-xs">
          <time dateTime={item.call.askedAt}>{askedTime(item.call.askedAt)}</time>
        </span>
      </Button>
      <div id={panelId} hidden={!open} className="pt-2">
        {open ? (
          item.block.type === "elicitation" ? (
            <ChatElicitation block={item.block} autoFocus />
          ) : (
            <ChatApproval block={item.block} />
          )
        ) : null}
      </div>
    </li>
  );
}

/**
 * The calls waiting for the person, in every conversation, grouped by conversation: each call
 * opens into the same `ChatElicitation` or `ChatApproval` the transcript shows, answered in place.
 * A list of named items under a heading with its count, announced politely when it changes.
 */
function AgentInbox({
  calls,
  threadTitle,
  onOpenThread,
  title = "Waiting for you",
  emptyText = "Nothing waits for you.",
  className,
  ...props
}: React.ComponentProps<"section"> & {
  /** The waiting calls (`usePendingCalls().calls`). */
  calls: readonly PendingCallItem[];
  /** A conversation's title (e.g. from `useThreads`); the agent's name when left out or empty. */
  threadTitle?: (threadId: string) => string | undefined;
  /** Opens a conversation; each group gets an "Open conversation" button when given. */
  onOpenThread?: (threadId: string) => void;
  /** The heading. */
  title?: string;
  /** Said when nothing waits. */
  emptyText?: string;
}) {
  const headingId = React.useId();
  const [openId, setOpenId] = React.useState<string | undefined>(undefined);
  const groups = groupByThread(calls);
  return (
    <section
      data-slot="agent-inbox"
      aria-labelledby={headingId}
      className={cn("flex flex-col gap-3", className)}
      {...props}
    >
      <h2 id={headingId} className="flex items-center gap-2 text-base font-semibold">
        {title}
        <InboxCount count={calls.length} />
      </h2>
      {groups.length === 0 ? (
        <p className="text-sm text-muted-foreground">{emptyText}</p>
      ) : (
        <ul className="flex flex-col gap-4">
          {groups.map((group) => {
            const name = threadTitle?.(group.threadId) || `Conversation with ${group.agent}`;
            return (
              <li key={group.threadId} data-slot="agent-inbox-group" aria-label={name}>
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h3 className="min-w-0 truncate text-sm font-medium">
                    {name} <span className="text-muted-foreground">· {group.agent}</span>
                  </h3>
                  {onOpenThread ? (
                    <Button
                      type="button"
                      variant="outline"
                      size="sm"
                      className="min-h-11 sm:min-h-8"
                      onClick={() => onOpenThread(group.threadId)}
                    >
                      Open conversation<span className="sr-only">: {name}</span>
                    </Button>
                  ) : null}
                </div>
                <ul className="mt-1 flex flex-col gap-1">
                  {group.items.map((item) => (
                    <AgentInboxCall
                      key={item.call.id}
                      item={item}
                      open={openId === item.call.id}
                      onToggle={() =>
                        setOpenId((current) => (current === item.call.id ? undefined : item.call.id))
                      }
                    />
                  ))}
                </ul>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

export { AgentInbox };
