"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { usePrepickMessages } from "@/hooks/prepick-messages-context";
import type { TranscriptMessage } from "@/hooks/transcript-types";
import { cn } from "@/lib/utils";
import { type ChatBlockRenderer, ChatMessage } from "./chat-message";

/** How close to the bottom (in px) still counts as "following the conversation". */
const STICK_DISTANCE = 16;

/**
 * Keeps a scroll container pinned to its bottom while its content grows, until the person
 * scrolls up; scrolling back down (or `scrollToBottom`) pins it again.
 */
function useStickToBottom(deps: readonly unknown[]) {
  const scrollRef = React.useRef<HTMLDivElement>(null);
  const contentRef = React.useRef<HTMLDivElement>(null);
  const stickRef = React.useRef(true);
  const [atBottom, setAtBottom] = React.useState(true);

  const scrollToBottom = React.useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    stickRef.current = true;
    setAtBottom(true);
    element.scrollTop = element.scrollHeight;
  }, []);

  const follow = React.useCallback(() => {
    const element = scrollRef.current;
    if (element && stickRef.current) element.scrollTop = element.scrollHeight;
  }, []);

  // Only the person's scrolling moves the pin: content growth fires no scroll event.
  const onScroll = React.useCallback(() => {
    const element = scrollRef.current;
    if (!element) return;
    const distance = element.scrollHeight - element.scrollTop - element.clientHeight;
    stickRef.current = distance <= STICK_DISTANCE;
    setAtBottom(stickRef.current);
  }, []);

  // biome-ignore lint/correctness/useExhaustiveDependencies: deps are the caller's content.
  React.useLayoutEffect(follow, deps);

  // A streamed delta grows one message without re-rendering the transcript; watch the size.
  React.useEffect(() => {
    const content = contentRef.current;
    if (!content || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver(follow);
    observer.observe(content);
    return () => observer.disconnect();
  }, [follow]);

  return { scrollRef, contentRef, atBottom, onScroll, scrollToBottom };
}

/**
 * Older messages put before the first one keep the reader where they were: the first message
 * shown is found again once they are in, and the log scrolls so it sits where it sat. Focus that
 * was on the button goes to the log when the button leaves (no older messages remain), in
 * whichever render that happens: a browser drops the focus of a removed element on the body.
 */
function useLoadOlder(
  scrollRef: React.RefObject<HTMLDivElement | null>,
  messages: readonly TranscriptMessage[],
  onLoadOlder: (() => Promise<void> | void) | undefined,
  showsButton: boolean,
) {
  const anchorRef = React.useRef<{ element: Element; top: number } | null>(null);
  // Whether the button holds the focus; a removed element fires no blur, so this outlives it.
  const buttonFocused = React.useRef(false);
  const load = React.useCallback(async () => {
    const viewport = scrollRef.current;
    const element = viewport?.querySelector("article");
    if (!viewport || !element || !onLoadOlder || anchorRef.current) return;
    anchorRef.current = {
      element,
      top: element.getBoundingClientRect().top - viewport.getBoundingClientRect().top,
    };
    try {
      await onLoadOlder();
    } finally {
      // Nothing came (a failure, or no older messages after all): the reader stays put anyway.
      requestAnimationFrame(() => {
        anchorRef.current = null;
      });
    }
  }, [scrollRef, onLoadOlder]);
  const first = messages[0]?.id;
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new first message is the reason to restore.
  React.useLayoutEffect(() => {
    const viewport = scrollRef.current;
    const anchor = anchorRef.current;
    if (!viewport || !anchor) return;
    anchorRef.current = null;
    const top = anchor.element.getBoundingClientRect().top - viewport.getBoundingClientRect().top;
    viewport.scrollTop += top - anchor.top;
  }, [first]);
  React.useLayoutEffect(() => {
    if (showsButton || !buttonFocused.current) return;
    buttonFocused.current = false;
    scrollRef.current?.focus();
  }, [showsButton, scrollRef]);
  const focusEvents = {
    onFocus: () => {
      buttonFocused.current = true;
    },
    onBlur: () => {
      buttonFocused.current = false;
    },
  };
  return { load, focusEvents };
}

/**
 * The conversation: a scrolling log of messages that follows new text as it streams in, and
 * stops following when the person scrolls up to read (a "Jump to latest" button brings it back).
 * Given `hasOlder` and `onLoadOlder`, a "Show earlier messages" button above the first message
 * loads the ones before it, keeping the reader's place.
 */
function ChatTranscript({
  messages,
  renderBlock,
  empty,
  label,
  hasOlder = false,
  loadingOlder = false,
  onLoadOlder,
  children,
  className,
  ...props
}: React.ComponentProps<"div"> & {
  /** The messages, as `useChatTranscript` gives them. */
  messages: readonly TranscriptMessage[];
  /** Renders a block in place of the default (return `undefined` to keep the default). */
  renderBlock?: ChatBlockRenderer;
  /** Shown while there are no messages. */
  empty?: React.ReactNode;
  /** The log's accessible name (`chat.conversation` of the messages when left out). */
  label?: string;
  /** Whether older messages than the first one shown can be loaded (`useChatTranscript().hasOlder`). */
  hasOlder?: boolean;
  /** Whether they are on their way (`useChatTranscript().loadingOlder`). */
  loadingOlder?: boolean;
  /** Loads them (`useChatTranscript().loadOlder`). */
  onLoadOlder?: () => Promise<void> | void;
}) {
  const { chat } = usePrepickMessages();
  const { scrollRef, contentRef, atBottom, onScroll, scrollToBottom } = useStickToBottom([
    messages,
    children,
  ]);
  const showsOlder = Boolean(hasOlder && onLoadOlder && messages.length > 0);
  const older = useLoadOlder(scrollRef, messages, onLoadOlder, showsOlder);
  return (
    <div
      data-slot="chat-transcript"
      data-empty={messages.length === 0 ? "" : undefined}
      data-following={atBottom ? "" : undefined}
      className={cn("flex min-h-0 flex-1 flex-col", className)}
      {...props}
    >
      <div
        ref={scrollRef}
        data-slot="chat-transcript-viewport"
        role="log"
        aria-live="polite"
        aria-label={label ?? chat.conversation}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable log must be reachable by keyboard.
        tabIndex={0}
        onScroll={onScroll}
        className="min-h-0 flex-1 overflow-y-auto outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
      >
        <div
          ref={contentRef}
          data-slot="chat-transcript-content"
          className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-6"
        >
          {showsOlder ? (
            <div className="flex justify-center">
              <Button
                type="button"
                data-slot="chat-transcript-older"
                size="sm"
                variant="outline"
                aria-disabled={loadingOlder || undefined}
                {...older.focusEvents}
                onClick={loadingOlder ? undefined : () => void older.load().catch(() => {})}
              >
                {loadingOlder ? chat.loadingEarlier : chat.showEarlier}
              </Button>
            </div>
          ) : null}
          {messages.length === 0
            ? (empty ?? (
                <p
                  data-slot="chat-transcript-empty"
                  className="py-12 text-center text-muted-foreground text-sm"
                >
                  {chat.empty}
                </p>
              ))
            : messages.map((message) => (
                <ChatMessage key={message.id} message={message} renderBlock={renderBlock} />
              ))}
          {children}
        </div>
      </div>
      {atBottom ? null : (
        // In the flow below the log, not over it: it never covers the last line or the status.
        <div data-slot="chat-transcript-jump-row" className="flex justify-center py-2">
          <Button
            type="button"
            data-slot="chat-transcript-jump"
            size="sm"
            variant="outline"
            onClick={scrollToBottom}
            className="rounded-full"
          >
            {chat.jumpToLatest}
          </Button>
        </div>
      )}
    </div>
  );
}

export { ChatTranscript, useStickToBottom };
