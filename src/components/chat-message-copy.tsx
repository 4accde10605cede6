"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { usePrepickMessages } from "@/hooks/prepick-messages-context";

/** How long "Copied" stays before the button reads "Copy" again. */
const COPIED_MS = 2_000;

/**
 * Puts `text` on the clipboard. The Clipboard API exists only in secure contexts; a page opened
 * over plain HTTP on a LAN address copies through a selected, off-screen field instead.
 */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const field = document.createElement("textarea");
    field.value = text;
    field.setAttribute("readonly", "");
    field.style.position = "fixed";
    field.style.opacity = "0";
    document.body.append(field);
    field.select();
    const copied = document.execCommand("copy");
    field.remove();
    return copied;
  }
}

/**
 * Copies an agent's message (its text as written, Markdown included) to the clipboard. The button
 * reads "Copied" for a moment, and a polite status says it, or says the browser would not.
 */
function ChatMessageCopy({
  text,
  ...props
}: React.ComponentProps<typeof Button> & {
  /** What to copy. */
  text: string;
}) {
  const { chat } = usePrepickMessages();
  const [state, setState] = React.useState<"idle" | "copied" | "failed">("idle");
  React.useEffect(() => {
    if (state === "idle") return;
    const timer = setTimeout(() => setState("idle"), COPIED_MS);
    return () => clearTimeout(timer);
  }, [state]);
  return (
    <>
      <Button
        type="button"
        data-slot="chat-message-copy"
        data-state={state}
        variant="ghost"
        size="sm"
        onClick={() => void copyText(text).then((copied) => setState(copied ? "copied" : "failed"))}
        {...props}
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        >
          {state === "copied" ? (
            <path d="M20 6 9 17l-5-5" />
          ) : (
            <>
              <rect width="14" height="14" x="8" y="8" rx="2" />
              <path d="M4 16c-1.1 0-2-.9-2-2V4c0-1.1.9-2 2-2h10c1.1 0 2 .9 2 2" />
            </>
          )}
        </svg>
        {state === "copied" ? chat.copied : chat.copy}
      </Button>
      <span role="status" className={state === "failed" ? "text-destructive" : "sr-only"}>
        {state === "copied" ? chat.copied : state === "failed" ? chat.copyFailed : ""}
      </span>
    </>
  );
}

export { ChatMessageCopy };
