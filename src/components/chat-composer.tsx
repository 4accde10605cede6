"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import type { PrepickMessagesInput } from "@/hooks/prepick-messages";
import { usePrepickMessages } from "@/hooks/prepick-messages-context";
import { cn } from "@/lib/utils";

/** Where the composer stands, for `data-state`: ready to send, streaming a reply, or disabled. */
type ChatComposerState = "idle" | "streaming" | "disabled";

/**
 * Whether a keydown is part of an IME composition: the Enter that commits a candidate (Japanese,
 * Chinese, Korean input) reports `isComposing`, or only `keyCode` 229 in Safari.
 */
function isComposing(event: React.KeyboardEvent): boolean {
  return event.nativeEvent.isComposing || event.keyCode === 229;
}

/**
 * The message box: a textarea and a send button. Enter sends, Shift+Enter starts a new line, an
 * Enter that commits an IME composition does neither. While a reply streams, sending waits and a
 * Stop button ends the reply. The text is its own, or the caller's with `value` and `onValueChange`
 * (to put a message that was not sent back in the box).
 */
function ChatComposer({
  onSend,
  onStop,
  streaming = false,
  disabled = false,
  placeholder,
  label,
  value,
  onValueChange,
  messages: own,
  className,
  ...props
}: Omit<React.ComponentProps<"form">, "onSubmit"> & {
  /** Called with the trimmed text when the person sends; the box empties. */
  onSend: (text: string) => void;
  /** The text in the box, when the caller keeps it; leave out for the box to keep its own. */
  value?: string;
  /** Called with the new text as the person types, and with `""` when the box empties on send. */
  onValueChange?: (text: string) => void;
  /** Its words, laid over the nearest `PrepickMessagesProvider`'s (or English). */
  messages?: PrepickMessagesInput;
  /** Ends the streaming reply; the Stop button shows only when this is given. */
  onStop?: () => void;
  /** True while a reply streams: sending waits until it ends. */
  streaming?: boolean;
  /** Turns the whole composer off (e.g. while a question waits for an answer). */
  disabled?: boolean;
  /** Hint text in the empty box (`composer.placeholder` of the messages when left out). */
  placeholder?: string;
  /** The box's accessible name (`composer.label` of the messages when left out). */
  label?: string;
}) {
  const { composer } = usePrepickMessages(own);
  const [ownText, setOwnText] = React.useState("");
  const text = value ?? ownText;
  const setText = (next: string) => {
    if (value === undefined) setOwnText(next);
    onValueChange?.(next);
  };
  const state: ChatComposerState = disabled ? "disabled" : streaming ? "streaming" : "idle";
  const canSend = state === "idle" && text.trim() !== "";

  const send = () => {
    if (!canSend) return;
    onSend(text.trim());
    setText("");
  };

  return (
    <form
      data-slot="chat-composer"
      data-state={state}
      className={cn(
        "flex w-full items-end gap-2 rounded-xl border border-input bg-background p-2 shadow-xs transition-[color,box-shadow] focus-within:border-ring focus-within:ring-[3px] focus-within:ring-ring/50 data-[state=disabled]:opacity-60 dark:bg-input/30",
        className,
      )}
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
      {...props}
    >
      <textarea
        data-slot="chat-composer-input"
        aria-label={label ?? composer.label}
        rows={1}
        value={text}
        disabled={disabled}
        placeholder={placeholder ?? composer.placeholder}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          // An IME composition uses Enter to pick a candidate: that must not send.
          if (event.key !== "Enter" || event.shiftKey || isComposing(event)) return;
          event.preventDefault();
          send();
        }}
        className="field-sizing-content max-h-48 min-h-9 flex-1 resize-none bg-transparent px-2 py-2 text-sm outline-none placeholder:text-muted-foreground disabled:cursor-not-allowed"
      />
      {streaming && onStop ? (
        <Button
          type="button"
          data-slot="chat-composer-stop"
          size="icon"
          variant="outline"
          aria-label={composer.stop}
          disabled={disabled}
          onClick={onStop}
        >
          <svg aria-hidden="true" viewBox="0 0 16 16" fill="currentColor">
            <rect x="4" y="4" width="8" height="8" rx="1.5" />
          </svg>
        </Button>
      ) : (
        <Button
          data-slot="chat-composer-send"
          type="submit"
          size="icon"
          aria-label={composer.send}
          disabled={!canSend}
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 16 16"
            fill="none"
            stroke="currentColor"
            strokeWidth="1.75"
            strokeLinecap="round"
            strokeLinejoin="round"
          >
            <path d="M8 13V3M3.5 7.5 8 3l4.5 4.5" />
          </svg>
        </Button>
      )}
    </form>
  );
}

export { ChatComposer, type ChatComposerState };
