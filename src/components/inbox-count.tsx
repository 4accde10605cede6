"use client";

import type * as React from "react";
import { Badge } from "@/components/ui/badge";
import { count as countOf } from "@/hooks/format-answer";
import type { PrepickMessagesInput } from "@/hooks/prepick-messages";
import { usePrepickMessages } from "@/hooks/prepick-messages-context";
import { cn } from "@/lib/utils";

/**
 * How many calls wait for the person, for a header or a button: a badge while anything waits
 * (never a zero badge), written for the messages' locale. With `live`, also a polite live region
 * that says the new count when it changes: give one count on a page `live`, so a change is heard
 * once, not once per place the count shows.
 */
function InboxCount({
  count,
  live = false,
  describe,
  messages: own,
  className,
  ...props
}: Omit<React.ComponentProps<"span">, "children"> & {
  /** How many calls wait (`usePendingCalls().count`). */
  count: number;
  /** Says the count in a polite live region as it changes (one per page). */
  live?: boolean;
  /** The sentence a screen reader hears for a count (`inbox.waiting` of the messages when left out). */
  describe?: (count: number) => string;
  /** Its words, laid over the nearest `PrepickMessagesProvider`'s (or English). */
  messages?: PrepickMessagesInput;
}) {
  const messages = usePrepickMessages(own);
  const sentence = describe ? describe(count) : messages.inbox.waiting(countOf(messages, count));
  return (
    <span data-slot="inbox-count" data-count={count} className={cn("inline-flex", className)} {...props}>
      {count > 0 ? (
        <Badge aria-hidden="true" className="min-w-5 rounded-full px-1.5 tabular-nums">
          {countOf(messages, count).text}
        </Badge>
      ) : null}
      {live ? (
        <span role="status" aria-live="polite" className="sr-only">
          {sentence}
        </span>
      ) : null}
    </span>
  );
}

export { InboxCount };
