"use client";

import * as React from "react";
import { Bubble, BubbleContent } from "@/components/ui/bubble";
import { Message, MessageContent, MessageFooter } from "@/components/ui/message";
import { usePrepickMessages } from "@/hooks/prepick-messages-context";
import type { ReasoningBlock, TextBlock, TranscriptBlock, TranscriptMessage } from "@/hooks/transcript-types";
import { cn } from "@/lib/utils";
import { ChatApproval } from "./chat-approval";
import { ChatElicitation } from "./chat-elicitation";
import { ChatMessageCollapsible, isLongMessage, messageText } from "./chat-message-collapsible";
import { ChatMessageCopy } from "./chat-message-copy";
import { ChatToolCall } from "./chat-tool-call";

/**
 * Renders one block in place of the default, or returns `undefined` to keep the default. Keep it
 * stable (module scope or `useCallback`): a new function re-renders every message.
 */
type ChatBlockRenderer = (block: TranscriptBlock, message: TranscriptMessage) => React.ReactNode | undefined;

/** Whether any block of the message is still streaming. */
function isStreaming(message: TranscriptMessage): boolean {
  return message.blocks.some(
    (block) => (block.type === "text" || block.type === "reasoning") && block.streaming,
  );
}

/** The Markdown renderer, loaded with the first text of the agent a page shows. */
const ChatMarkdown = React.lazy(() =>
  import("./chat-markdown").then((module) => ({ default: module.ChatMarkdown })),
);

/**
 * The layout of the agent's text, shared by the Markdown and the plain text shown until the
 * renderer has loaded: paragraphs a gap apart, so the swap moves nothing.
 */
const MARKDOWN_LAYOUT =
  "flex flex-col gap-3 [&_a]:text-primary [&_a]:underline [&_a]:underline-offset-2 [&_ol]:list-decimal [&_ol]:ps-5 [&_pre]:overflow-x-auto [&_ul]:list-disc [&_ul]:ps-5";

/**
 * The agent's text as plain paragraphs, laid out as the Markdown will be, while the renderer is on
 * its way: readable at once, and nothing jumps when it arrives.
 */
function ChatPlainParagraphs({ text }: { text: string }) {
  return (
    <div data-slot="chat-message-plain" dir="auto" className={MARKDOWN_LAYOUT}>
      {text.split(/\n{2,}/).map((paragraph, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: paragraphs only grow at the end as text streams.
        <p key={index} className="whitespace-pre-wrap">
          {paragraph}
        </p>
      ))}
    </div>
  );
}

/**
 * A text block: the agent's as Markdown (`ChatMarkdown`, loaded on first use; plain paragraphs
 * until it arrives), a person's as they typed it. Its direction follows its own first strong
 * character (`dir="auto"`), so an English reply reads left to right in a right-to-left page.
 */
function ChatMessageText({
  block,
  markdown = true,
  className,
  ...props
}: React.ComponentProps<"div"> & {
  /** The text block to show. */
  block: TextBlock;
  /** Renders the text as Markdown (the agent's); false shows it as typed (the person's). */
  markdown?: boolean;
}) {
  return (
    <div
      data-slot="chat-message-text"
      data-streaming={block.streaming ? "" : undefined}
      dir="auto"
      className={cn(
        markdown
          ? "min-w-0 wrap-anywhere leading-relaxed"
          : "whitespace-pre-wrap wrap-anywhere leading-relaxed",
        className,
      )}
      {...props}
    >
      {markdown ? (
        <React.Suspense fallback={<ChatPlainParagraphs text={block.text} />}>
          <ChatMarkdown text={block.text} streaming={block.streaming} className={MARKDOWN_LAYOUT} />
        </React.Suspense>
      ) : (
        block.text
      )}
      {block.streaming ? (
        <span
          data-slot="chat-message-caret"
          aria-hidden="true"
          className="ms-0.5 inline-block h-4 w-1.5 translate-y-0.5 animate-pulse rounded-xs bg-current motion-reduce:animate-none"
        />
      ) : null}
    </div>
  );
}

/** The model's reasoning, collapsed under one line the person can open. */
function ChatMessageReasoning({
  block,
  className,
  ...props
}: React.ComponentProps<"details"> & {
  /** The reasoning block to show. */
  block: ReasoningBlock;
}) {
  const { chat } = usePrepickMessages();
  return (
    <details
      data-slot="chat-message-reasoning"
      data-streaming={block.streaming ? "" : undefined}
      className={cn("group text-muted-foreground text-sm", className)}
      {...props}
    >
      <summary
        data-slot="chat-message-reasoning-trigger"
        className="flex w-fit cursor-pointer list-none items-center gap-1.5 rounded-sm outline-none select-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring/50 [&::-webkit-details-marker]:hidden"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 16 16"
          className="size-3.5 transition-transform group-open:rotate-90 rtl:-scale-x-100 rtl:group-open:-rotate-90"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
        >
          <path d="m6 4 4 4-4 4" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span className={cn(block.streaming && "animate-pulse motion-reduce:animate-none")}>
          {block.streaming ? chat.thinking : chat.reasoning}
        </span>
      </summary>
      <div
        data-slot="chat-message-reasoning-content"
        className="mt-2 whitespace-pre-wrap wrap-anywhere border-s-2 ps-3 leading-relaxed"
      >
        {block.text}
      </div>
    </details>
  );
}

/** The default rendering of one block; other parts (files, sources, data) need a `renderBlock`. */
function defaultBlock(block: TranscriptBlock, message: TranscriptMessage): React.ReactNode {
  switch (block.type) {
    case "text":
      return <ChatMessageText block={block} markdown={message.role !== "user"} />;
    case "reasoning":
      return <ChatMessageReasoning block={block} />;
    case "tool":
      return <ChatToolCall block={block} />;
    case "approval":
      return <ChatApproval block={block} />;
    case "elicitation":
      return <ChatElicitation block={block} />;
    default:
      return null;
  }
}

/**
 * One message of the transcript on the app's shadcn `message` and `bubble`: the person's words in
 * a bubble on the end side, the assistant's blocks (text, reasoning, tool calls, approvals,
 * questions) across the row. Memoised on the message object, so a streamed delta re-renders only
 * the message it lands in.
 */
const ChatMessage = React.memo(function ChatMessage({
  message,
  renderBlock,
  className,
  ...props
}: React.ComponentProps<"article"> & {
  /** The message, as `useChatTranscript` gives it. */
  message: TranscriptMessage;
  /** Renders a block in place of the default (return `undefined` to keep the default). */
  renderBlock?: ChatBlockRenderer;
}) {
  const { chat } = usePrepickMessages();
  const isUser = message.role === "user";
  const streaming = isStreaming(message);
  const text = messageText(message);
  const blocks = message.blocks.map((block) => {
    const custom = renderBlock?.(block, message);
    const content = custom === undefined ? defaultBlock(block, message) : custom;
    return content === null ? null : <React.Fragment key={block.id}>{content}</React.Fragment>;
  });
  return (
    <article
      data-slot="chat-message"
      data-role={message.role}
      data-streaming={streaming ? "" : undefined}
      aria-label={isUser ? chat.you : chat.assistant}
      className={cn("group/chat-message w-full", className)}
      {...props}
    >
      <Message align={isUser ? "end" : "start"}>
        {/* Text from a model or a person may hold a word longer than the column: it breaks anywhere. */}
        <MessageContent className="gap-3 wrap-anywhere">
          {isUser ? (
            <Bubble variant="default" align="end">
              <BubbleContent className="flex flex-col gap-3 rounded-2xl rounded-ee-md px-4 py-2.5">
                <ChatMessageCollapsible long={isLongMessage(message)}>{blocks}</ChatMessageCollapsible>
              </BubbleContent>
            </Bubble>
          ) : (
            blocks
          )}
          {!isUser && text !== "" && !streaming ? (
            <MessageFooter className="gap-2 px-0">
              <ChatMessageCopy text={text} className="-ms-3" />
            </MessageFooter>
          ) : null}
        </MessageContent>
      </Message>
    </article>
  );
});

export { type ChatBlockRenderer, ChatMessage, ChatMessageReasoning, ChatMessageText };
