import type * as React from "react";
import { cn } from "@/lib/utils";

/** Consecutive messages from one sender, stacked. */
function MessageGroup({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div data-slot="message-group" className={cn("flex min-w-0 flex-col gap-2", className)} {...props} />
  );
}

/** One row of a conversation; `align="end"` is the person's own side. */
function Message({
  className,
  align = "start",
  ...props
}: React.ComponentProps<"div"> & {
  /** The side the row sits on: `start` for others, `end` for the person. */
  align?: "start" | "end";
}) {
  return (
    <div
      data-slot="message"
      data-align={align}
      className={cn(
        "group/message relative flex w-full min-w-0 gap-2 text-sm data-[align=end]:flex-row-reverse",
        className,
      )}
      {...props}
    />
  );
}

/** The sender's picture beside the row. */
function MessageAvatar({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      data-slot="message-avatar"
      className={cn(
        "flex w-fit min-w-8 shrink-0 items-center justify-center self-end overflow-hidden rounded-full bg-muted",
        className,
      )}
      {...props}
    />
  );
}

/** The row's body: the bubble or whatever surface holds the message. */
function MessageContent({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      data-slot="message-content"
      className={cn(
        "flex w-full min-w-0 flex-col gap-2.5 wrap-break-word group-data-[align=end]/message:items-end",
        className,
      )}
      {...props}
    />
  );
}

/** A line above the body: the sender's name. */
function MessageHeader({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      data-slot="message-header"
      className={cn(
        "flex min-w-0 max-w-full items-center px-3 font-medium text-muted-foreground text-xs",
        className,
      )}
      {...props}
    />
  );
}

/** A line below the body: a time, a receipt, actions such as Copy. */
function MessageFooter({ className, ...props }: React.ComponentProps<"div">) {
  return (
    <div
      data-slot="message-footer"
      className={cn(
        "flex min-w-0 max-w-full items-center px-3 font-medium text-muted-foreground text-xs group-data-[align=end]/message:justify-end",
        className,
      )}
      {...props}
    />
  );
}

export { Message, MessageAvatar, MessageContent, MessageFooter, MessageGroup, MessageHeader };
