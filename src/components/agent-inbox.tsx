"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { count } from "@/hooks/format-answer";
import type { PendingCallItem } from "@/hooks/pending-calls-store";
import type { PrepickMessages, PrepickMessagesInput } from "@/hooks/prepick-messages";
import { usePrepickMessages } from "@/hooks/prepick-messages-context";
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
function callSummary(item: PendingCallItem, messages: PrepickMessages): string {
  const { posted, agent } = item.call;
  if (posted.kind === "approval-request") return messages.inbox.approval(posted.toolName);
  return messages.inbox.questions(count(messages, posted.request.questions.length), agent);
}

/** When a call was asked, written for the messages' locale. */
function askedTime(askedAt: string, messages: PrepickMessages): string {
  const date = new Date(askedAt);
  return Number.isNaN(date.getTime())
    ? askedAt
    : new Intl.DateTimeFormat(messages.locale, { dateStyle: "medium", timeStyle: "short" }).format(date);
}

/**
 * What the person did to a call that left the inbox from here, or undefined when it was not them
 * (it left because someone settled it elsewhere). It leaves as soon as the server takes the
 * decision, so the block may still say it is on its way.
 */
function settledSentence(item: PendingCallItem, messages: PrepickMessages): string | undefined {
  const { block } = item;
  if (block.type === "approval") {
    const { status } = block.getSnapshot();
    return status === "settled" || status === "submitting" ? messages.inbox.decided : undefined;
  }
  const { settled, skip, answer, leftToAgent } = block.getSnapshot();
  const skipped = leftToAgent.length > 0 ? messages.inbox.skippedToAgent : messages.inbox.skipped;
  if (settled) return settled.skipped ? skipped : messages.inbox.answered;
  if (skip.status === "submitting") return skipped;
  return answer.status === "submitting" ? messages.inbox.answered : undefined;
}

/** One waiting call: a disclosure button that opens the same form or card the transcript shows. */
function AgentInboxCall({
  item,
  open,
  onToggle,
  messages,
}: {
  item: PendingCallItem;
  open: boolean;
  onToggle: () => void;
  messages: PrepickMessages;
}) {
  const panelId = React.useId();
  const summary = callSummary(item, messages);
  return (
    <li data-slot="agent-inbox-call" data-state={open ? "open" : "closed"} aria-label={summary}>
      <Button
        type="button"
        variant="ghost"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={onToggle}
        className="h-auto min-h-11 w-full flex-wrap justify-between gap-x-2 gap-y-0.5 whitespace-normal px-3 py-2 text-start"
      >
        <span className="font-medium">{summary}</span>
        <span className="text-foreground/70 text-xs">
          <time dateTime={item.call.askedAt}>{askedTime(item.call.askedAt, messages)}</time>
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

/** The way from the inbox to a conversation, named for it where a screen reader reads it. */
function OpenConversation({
  name,
  onOpen,
  messages,
}: {
  name: string;
  onOpen: () => void;
  messages: PrepickMessages;
}) {
  return (
    <Button type="button" variant="outline" size="sm" className="min-h-11 sm:min-h-8" onClick={onOpen}>
      {messages.inbox.openConversation}
      <span className="sr-only">
        : <bdi>{name}</bdi>
      </span>
    </Button>
  );
}

/** A call the person settled here, gone from the list: what happened, and where it goes on. */
interface InboxNotice {
  /** The call's id. */
  id: string;
  /** Its conversation. */
  threadId: string;
  /** The conversation's name. */
  name: string;
  /** What happened, as the person reads it. */
  sentence: string;
}

/**
 * The calls waiting for the person, in every conversation, grouped by conversation: each call
 * opens into the same `ChatElicitation` or `ChatApproval` the transcript shows, answered in place.
 * A list of named items under a heading with its count. Once a call answered here leaves the
 * list, a line in its place says what happened, with a way to its conversation, and takes the
 * focus, so the person stays in the inbox.
 */
function AgentInbox({
  calls,
  threadTitle,
  onOpenThread,
  title,
  emptyText,
  messages: own,
  className,
  ...props
}: React.ComponentProps<"section"> & {
  /** The waiting calls (`usePendingCalls().calls`). */
  calls: readonly PendingCallItem[];
  /** A conversation's title (e.g. from `useThreads`); "Conversation with <agent>" when left out or empty. */
  threadTitle?: (threadId: string) => string | undefined;
  /** Opens a conversation; each group gets an "Open conversation" button when given. */
  onOpenThread?: (threadId: string) => void;
  /** The heading (`inbox.title` of the messages when left out). */
  title?: string;
  /** Said when nothing waits (`inbox.empty` of the messages when left out). */
  emptyText?: string;
  /** Its words, laid over the nearest `PrepickMessagesProvider`'s (or English). */
  messages?: PrepickMessagesInput;
}) {
  const messages = usePrepickMessages(own);
  const headingId = React.useId();
  const [openId, setOpenId] = React.useState<string | undefined>(undefined);
  const [notice, setNotice] = React.useState<InboxNotice>();
  const noticeRef = React.useRef<HTMLDivElement>(null);
  const sectionRef = React.useRef<HTMLElement>(null);
  const groups = groupByThread(calls);
  const nameOf = (threadId: string, agent: string) =>
    threadTitle?.(threadId) || messages.inbox.untitled(agent);

  // The open call left the list: if the person settled it here, say so where it was.
  const listed = React.useRef(new Map<string, PendingCallItem>());
  // biome-ignore lint/correctness/useExhaustiveDependencies: read when the list changes, not when a name does.
  React.useEffect(() => {
    const present = new Set(calls.map(({ call }) => call.id));
    for (const [id, item] of listed.current) {
      if (present.has(id)) continue;
      listed.current.delete(id);
      const sentence = id === openId ? settledSentence(item, messages) : undefined;
      if (sentence) {
        const { threadId, agent } = item.call;
        setNotice({ id, threadId, name: nameOf(threadId, agent), sentence });
      }
    }
    for (const item of calls) listed.current.set(item.call.id, item);
  }, [calls, openId, messages]);

  // The form the focus was in is gone: the focus goes to the line saying what happened, unless the
  // person had already moved it out of the inbox.
  React.useEffect(() => {
    if (!notice) return;
    const active = document.activeElement;
    const lost = active === null || active === document.body || sectionRef.current?.contains(active);
    if (lost) noticeRef.current?.focus();
  }, [notice]);

  return (
    <section
      ref={sectionRef}
      data-slot="agent-inbox"
      aria-labelledby={headingId}
      className={cn("flex flex-col gap-3", className)}
      {...props}
    >
      <h2 id={headingId} className="flex items-center gap-2 text-base font-semibold">
        {title ?? messages.inbox.title}
        <InboxCount count={calls.length} />
      </h2>
      {notice ? (
        <div
          ref={noticeRef}
          tabIndex={-1}
          data-slot="agent-inbox-notice"
          className="flex flex-wrap items-center gap-2 rounded-md border px-3 py-2 text-sm outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
        >
          <p className="min-w-0 flex-1">{notice.sentence}</p>
          {onOpenThread ? (
            <OpenConversation
              name={notice.name}
              onOpen={() => onOpenThread(notice.threadId)}
              messages={messages}
            />
          ) : null}
        </div>
      ) : null}
      {groups.length === 0 ? (
        <p className="text-sm text-muted-foreground">{emptyText ?? messages.inbox.empty}</p>
      ) : (
        <ul className="flex flex-col gap-4">
          {groups.map((group) => {
            const name = nameOf(group.threadId, group.agent);
            return (
              <li key={group.threadId} data-slot="agent-inbox-group" aria-label={name}>
                <div className="flex flex-wrap items-center justify-between gap-2">
                  <h3 className="min-w-0 truncate text-sm font-medium">
                    <bdi>{name}</bdi>{" "}
                    <span className="text-muted-foreground">
                      · <bdi>{group.agent}</bdi>
                    </span>
                  </h3>
                  {onOpenThread ? (
                    <OpenConversation
                      name={name}
                      onOpen={() => onOpenThread(group.threadId)}
                      messages={messages}
                    />
                  ) : null}
                </div>
                <ul className="mt-1 flex flex-col gap-1">
                  {group.items.map((item) => (
                    <AgentInboxCall
                      key={item.call.id}
                      item={item}
                      messages={messages}
                      open={openId === item.call.id}
                      onToggle={() => {
                        setNotice(undefined);
                        setOpenId((current) => (current === item.call.id ? undefined : item.call.id));
                      }}
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
