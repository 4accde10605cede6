"use client";

import type * as React from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { count } from "@/hooks/format-answer";
import type { PrepickMessagesInput } from "@/hooks/prepick-messages";
import { usePrepickMessages } from "@/hooks/prepick-messages-context";
import type { ThreadSummary } from "@/lib/prepick/core/inbox";
import { cn } from "@/lib/utils";

/**
 * The person's conversations, newest activity first: each a button named by its title, with its
 * agent and, while calls wait in it, how many. The open one is marked `aria-current`.
 */
function ChatThreadList({
  threads,
  selectedId,
  onSelect,
  hasMore = false,
  onLoadMore,
  label,
  emptyText,
  messages: own,
  className,
  ...props
}: Omit<React.ComponentProps<"nav">, "onSelect"> & {
  /** The conversations (`useThreads().threads`). */
  threads: readonly ThreadSummary[];
  /** The open conversation's id. */
  selectedId?: string;
  /** Opens a conversation. */
  onSelect: (threadId: string) => void;
  /** Whether older conversations are left (`useThreads().hasMore`). */
  hasMore?: boolean;
  /** Loads older conversations. */
  onLoadMore?: () => void;
  /** The list's accessible name (`chat.conversations` of the messages when left out). */
  label?: string;
  /** Said when there are none (`threads.empty` of the messages when left out). */
  emptyText?: string;
  /** Its words, laid over the nearest `PrepickMessagesProvider`'s (or English). */
  messages?: PrepickMessagesInput;
}) {
  const messages = usePrepickMessages(own);
  return (
    <nav
      data-slot="chat-thread-list"
      aria-label={label ?? messages.chat.conversations}
      className={cn("flex flex-col gap-2", className)}
      {...props}
    >
      {threads.length === 0 ? (
        <p className="text-sm text-muted-foreground">{emptyText ?? messages.threads.empty}</p>
      ) : (
        <ul className="flex flex-col gap-1">
          {threads.map((thread) => {
            const current = thread.id === selectedId;
            // A title is the person's first message, in whatever script they wrote it: isolated.
            const title = thread.title || messages.inbox.untitled(thread.agent);
            return (
              <li
                key={thread.id}
                data-slot="chat-thread-list-item"
                data-waiting={thread.waiting > 0 || undefined}
              >
                <Button
                  type="button"
                  variant={current ? "secondary" : "ghost"}
                  aria-current={current ? "page" : undefined}
                  onClick={() => onSelect(thread.id)}
                  className="h-auto min-h-11 w-full justify-between gap-2 whitespace-normal px-3 py-2 text-start"
                >
                  <span className="flex min-w-0 flex-col">
                    <span dir="auto" className="truncate text-start font-medium">
                      {title}
                    </span>
                    {/* Muted text measures 4.34:1 on the selected or hovered row; 70 % of the foreground stays above 4.5:1 on both. */}
                    <bdi className="text-foreground/70 text-xs">{thread.agent}</bdi>
                  </span>
                  {thread.waiting > 0 ? (
                    <Badge className="shrink-0 rounded-full tabular-nums">
                      <span aria-hidden="true">{count(messages, thread.waiting).text}</span>
                      <span className="sr-only">
                        {messages.threads.waiting(count(messages, thread.waiting))}
                      </span>
                    </Badge>
                  ) : null}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      {hasMore && onLoadMore ? (
        <Button type="button" variant="outline" className="min-h-11" onClick={onLoadMore}>
          {messages.threads.older}
        </Button>
      ) : null}
    </nav>
  );
}

export { ChatThreadList };
