"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { Marker, MarkerContent } from "@/components/ui/marker";
import {
  MessageScroller,
  MessageScrollerButton,
  MessageScrollerContent,
  MessageScrollerItem,
  MessageScrollerProvider,
  MessageScrollerViewport,
} from "@/components/ui/message-scroller";
import { usePrepickMessages } from "@/hooks/prepick-messages-context";
import type { TranscriptMessage } from "@/hooks/transcript-types";
import { cn } from "@/lib/utils";
import { type ChatBlockRenderer, ChatMessage } from "./chat-message";
import { ChatTranscriptAnnouncer } from "./chat-transcript-announcer";

/**
 * Focus that was on "Show earlier messages" goes to the conversation when the button leaves (no
 * older messages remain), in whichever render that happens: a browser drops the focus of a
 * removed element on the body. The move does not scroll, so the reader stays where they were.
 */
function useFocusAfterOlder(viewportRef: React.RefObject<HTMLDivElement | null>, showsButton: boolean) {
  // Whether the button holds the focus; a removed element fires no blur, so this outlives it.
  const buttonFocused = React.useRef(false);
  React.useLayoutEffect(() => {
    if (showsButton || !buttonFocused.current) return;
    buttonFocused.current = false;
    viewportRef.current?.focus({ preventScroll: true });
  }, [showsButton, viewportRef]);
  return {
    onFocus: () => {
      buttonFocused.current = true;
    },
    onBlur: () => {
      buttonFocused.current = false;
    },
  };
}

/**
 * The conversation on the app's shadcn `message-scroller`: it opens at the newest message,
 * follows a reply while the reader is at the end and lets go when they scroll, wheel, swipe or
 * use the keyboard to read; a message the person sends starts a new turn near the top of the view
 * with the reply growing under it; "Jump to latest" brings a reader who left back and follows
 * again. Given `hasOlder` and `onLoadOlder`, "Show earlier messages" above the first message
 * loads the ones before it, and the scroller keeps the reader's place as they come in. A screen
 * reader hears each of the agent's replies once, when it is complete; the question sets and
 * approvals in it are not read out as they are added (they take the focus where the block asks).
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
  /** The conversation's accessible name (`chat.conversation` of the messages when left out). */
  label?: string;
  /** Whether older messages than the first one shown can be loaded (`useChatTranscript().hasOlder`). */
  hasOlder?: boolean;
  /** Whether they are on their way (`useChatTranscript().loadingOlder`). */
  loadingOlder?: boolean;
  /** Loads them (`useChatTranscript().loadOlder`). */
  onLoadOlder?: () => Promise<void> | void;
}) {
  const { chat } = usePrepickMessages();
  const viewportRef = React.useRef<HTMLDivElement>(null);
  const showsOlder = Boolean(hasOlder && onLoadOlder && messages.length > 0);
  const olderFocus = useFocusAfterOlder(viewportRef, showsOlder);
  return (
    <div
      data-slot="chat-transcript"
      data-empty={messages.length === 0 ? "" : undefined}
      className={cn("flex min-h-0 flex-1 flex-col", className)}
      {...props}
    >
      <MessageScrollerProvider autoScroll>
        <MessageScroller>
          <MessageScrollerViewport
            ref={viewportRef}
            aria-label={label ?? chat.conversation}
            className="outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50"
          >
            {showsOlder ? (
              // Outside the content: the scroller keeps the reader's place when the content's
              // first row changes, which it would not if this row stayed first.
              <Marker variant="separator" className="mx-auto max-w-3xl px-4 pt-6">
                <MarkerContent>
                  <Button
                    type="button"
                    data-slot="chat-transcript-older"
                    size="sm"
                    variant="outline"
                    className="text-foreground"
                    aria-disabled={loadingOlder || undefined}
                    {...olderFocus}
                    onClick={
                      loadingOlder ? undefined : () => void Promise.resolve(onLoadOlder?.()).catch(() => {})
                    }
                  >
                    {loadingOlder ? chat.loadingEarlier : chat.showEarlier}
                  </Button>
                </MarkerContent>
              </Marker>
            ) : null}
            {/* A log that does not speak: the announcer says each reply once, complete, and the
                question sets and approvals added here are met by the focus they take. */}
            <MessageScrollerContent aria-live="off" className="mx-auto w-full max-w-3xl gap-6 px-4 py-6">
              {messages.length === 0 ? (
                <MessageScrollerItem>
                  {empty ?? (
                    <p
                      data-slot="chat-transcript-empty"
                      className="py-12 text-center text-muted-foreground text-sm"
                    >
                      {chat.empty}
                    </p>
                  )}
                </MessageScrollerItem>
              ) : (
                messages.map((message) => (
                  // The person's message starts a turn: the scroller brings it near the top.
                  <MessageScrollerItem
                    key={message.id}
                    messageId={message.id}
                    scrollAnchor={message.role === "user"}
                  >
                    <ChatMessage message={message} renderBlock={renderBlock} />
                  </MessageScrollerItem>
                ))
              )}
              {children ? <MessageScrollerItem>{children}</MessageScrollerItem> : null}
            </MessageScrollerContent>
          </MessageScrollerViewport>
          <MessageScrollerButton variant="outline" size="sm" className="rounded-full shadow-sm">
            {chat.jumpToLatest}
          </MessageScrollerButton>
        </MessageScroller>
      </MessageScrollerProvider>
      <ChatTranscriptAnnouncer messages={messages} />
    </div>
  );
}

export { ChatTranscript };
