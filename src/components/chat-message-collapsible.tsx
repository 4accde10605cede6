"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { usePrepickMessages } from "@/hooks/prepick-messages-context";
import type { TranscriptMessage } from "@/hooks/transcript-types";
import { cn } from "@/lib/utils";

/** A message longer than this many characters, or lines, folds: about a phone's screen of text. */
const FOLD_CHARACTERS = 1_200;
const FOLD_LINES = 16;

/** The text of a message's text blocks, joined by a blank line. */
function messageText(message: TranscriptMessage): string {
  return message.blocks.flatMap((block) => (block.type === "text" ? [block.text] : [])).join("\n\n");
}

/** Whether a message is long enough to fold. */
function isLongMessage(message: TranscriptMessage): boolean {
  const text = messageText(message);
  return text.length > FOLD_CHARACTERS || text.split("\n").length > FOLD_LINES;
}

/**
 * A long message folded to a few lines under "Show more", which shows the rest ("Show less" folds
 * it again). Folding is only visual: the whole text stays in the page, so find-in-page, copying
 * and screen readers get all of it. A short message renders as it is.
 */
function ChatMessageCollapsible({
  long,
  children,
  className,
  ...props
}: React.ComponentProps<"div"> & {
  /** Whether the content is long enough to fold (`isLongMessage`). */
  long: boolean;
}) {
  const { chat } = usePrepickMessages();
  const [open, setOpen] = React.useState(false);
  const id = React.useId();
  if (!long) return <>{children}</>;
  return (
    <>
      <div
        id={id}
        data-slot="chat-message-collapsible"
        data-state={open ? "open" : "closed"}
        className={cn(
          "flex min-w-0 flex-col gap-3",
          !open && "max-h-60 overflow-hidden [mask-image:linear-gradient(to_bottom,black_65%,transparent)]",
          className,
        )}
        {...props}
      >
        {children}
      </div>
      <Button
        type="button"
        data-slot="chat-message-more"
        variant="ghost"
        size="sm"
        aria-expanded={open}
        aria-controls={id}
        className="self-end"
        onClick={() => setOpen((shown) => !shown)}
      >
        {open ? chat.showLess : chat.showMore}
      </Button>
    </>
  );
}

export { ChatMessageCollapsible, isLongMessage, messageText };
