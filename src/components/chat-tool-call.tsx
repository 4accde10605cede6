"use client";

import type * as React from "react";
import type { PrepickMessages, PrepickMessagesInput } from "@/hooks/prepick-messages";
import { usePrepickMessages } from "@/hooks/prepick-messages-context";
import type { ToolBlock, ToolCallStatus } from "@/hooks/transcript-types";
import { readDeadline } from "@/hooks/use-deadline";
import { ASK_TOOL_NAME } from "@/lib/prepick/core/ask-tool";
import { cn } from "@/lib/utils";

/** What each status reads as. */
function statusLabel(status: ToolCallStatus, { toolCall }: PrepickMessages): string {
  return {
    running: toolCall.running,
    done: toolCall.done,
    error: toolCall.failed,
    denied: toolCall.rejected,
  }[status];
}

/** A value as the person reads it: strings as they are, anything else as indented JSON. */
function formatValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A small badge naming where a tool call stands. */
function ChatToolCallStatus({
  status,
  className,
  children,
  ...props
}: React.ComponentProps<"span"> & {
  /** Running, done, error or denied. */
  status: ToolCallStatus;
}) {
  const messages = usePrepickMessages();
  return (
    <span
      data-slot="chat-tool-call-status"
      data-state={status}
      className={cn(
        "inline-flex items-center gap-1.5 rounded-full border px-2 py-0.5 font-medium text-xs",
        "data-[state=done]:text-muted-foreground",
        "data-[state=error]:border-destructive/40 data-[state=error]:text-destructive",
        "data-[state=denied]:text-muted-foreground",
        className,
      )}
      {...props}
    >
      {status === "running" ? (
        <span
          aria-hidden="true"
          className="size-1.5 animate-pulse rounded-full bg-current motion-reduce:animate-none"
        />
      ) : null}
      {children ?? statusLabel(status, messages)}
    </span>
  );
}

/** One labelled value of a tool call (its input or its output). */
function ChatToolCallSection({
  label,
  value,
  className,
  ...props
}: React.ComponentProps<"div"> & {
  /** What the value is ("Input", "Output", "Error"). */
  label: string;
  /** The value to show. */
  value: string;
}) {
  return (
    <div data-slot="chat-tool-call-section" className={cn("flex flex-col gap-1", className)} {...props}>
      <div data-slot="chat-tool-call-label" className="font-medium text-muted-foreground text-xs">
        {label}
      </div>
      <pre
        data-slot="chat-tool-call-value"
        className="max-h-64 overflow-auto whitespace-pre-wrap wrap-anywhere rounded-md bg-muted px-3 py-2 font-mono text-xs"
      >
        {value}
      </pre>
    </div>
  );
}

/**
 * A question set the model wrote wrong, which went back to it to ask again: one sentence for the
 * person, the model's input and the problems behind a disclosure.
 */
function ChatMalformedAsk({
  block,
  messages,
  className,
  ...props
}: React.ComponentProps<"div"> & { block: ToolBlock; messages: PrepickMessages }) {
  return (
    <div
      data-slot="chat-tool-call"
      data-state={block.status}
      data-kind="malformed-ask"
      className={cn("flex w-full flex-col gap-2 rounded-lg border bg-card px-3 py-2 text-sm", className)}
      {...props}
    >
      <p data-slot="chat-tool-call-malformed" className="text-muted-foreground">
        {messages.toolCall.malformedAsk}
      </p>
      <details data-slot="chat-tool-call-details" className="group">
        <summary className="w-fit cursor-pointer rounded-sm text-xs outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50">
          {messages.toolCall.details}
        </summary>
        <div className="mt-2 flex flex-col gap-3">
          <ChatToolCallSection label={messages.toolCall.input} value={formatValue(block.input)} />
          <ChatToolCallSection
            label={messages.toolCall.error}
            value={block.errorText ?? messages.toolCall.failedWithoutReason}
          />
        </div>
      </details>
    </div>
  );
}

/**
 * A tool call the agent made: its name and status on one line, its input and its output (or
 * error) underneath. Opens by itself when the call failed. A malformed `ask` reads as one
 * sentence, its details behind a disclosure.
 */
function ChatToolCall({
  block,
  messages: own,
  className,
  ...props
}: React.ComponentProps<"details"> & {
  /** The tool call, as `useChatTranscript` gives it. */
  block: ToolBlock;
  /** Its words, laid over the nearest `PrepickMessagesProvider`'s (or English). */
  messages?: PrepickMessagesInput;
}) {
  const messages = usePrepickMessages(own);
  const { toolCall } = messages;
  if (block.toolName === ASK_TOOL_NAME && block.status === "error") {
    return <ChatMalformedAsk block={block} messages={messages} className={className} />;
  }
  // Denied with no decision: the run was cancelled while the call waited for one, or its deadline passed.
  const cancelled = block.status === "denied" && !block.approval;
  const deadline = cancelled ? readDeadline(block.expiresAt, Date.now(), messages.locale) : undefined;
  const expired = deadline?.expired === true;
  const hasInput = block.input !== undefined && formatValue(block.input) !== "{}";
  return (
    <details
      data-slot="chat-tool-call"
      data-state={block.status}
      open={block.status === "error" ? true : undefined}
      className={cn(
        "group w-full min-w-0 wrap-anywhere rounded-lg border bg-card text-card-foreground text-sm data-[state=error]:border-destructive/40",
        className,
      )}
      {...props}
    >
      <summary
        data-slot="chat-tool-call-trigger"
        className="flex cursor-pointer list-none items-center gap-2 rounded-lg px-3 py-2 outline-none select-none hover:bg-accent/50 focus-visible:ring-[3px] focus-visible:ring-ring/50 [&::-webkit-details-marker]:hidden"
      >
        <svg
          aria-hidden="true"
          viewBox="0 0 16 16"
          className="size-3.5 text-muted-foreground transition-transform group-open:rotate-90 rtl:-scale-x-100 rtl:group-open:-rotate-90"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
        >
          <path d="m6 4 4 4-4 4" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span data-slot="chat-tool-call-name" className="font-medium font-mono text-xs">
          {block.toolName}
        </span>
        <ChatToolCallStatus status={block.status} className="ms-auto">
          {cancelled ? toolCall.cancelled : undefined}
        </ChatToolCallStatus>
      </summary>
      <div data-slot="chat-tool-call-body" className="flex flex-col gap-3 border-t px-3 py-3">
        {hasInput ? <ChatToolCallSection label={toolCall.input} value={formatValue(block.input)} /> : null}
        {block.status === "done" ? (
          <ChatToolCallSection label={toolCall.output} value={formatValue(block.output)} />
        ) : null}
        {block.status === "error" ? (
          <div data-slot="chat-tool-call-error" className="text-destructive text-sm">
            {block.errorText ?? toolCall.failedWithoutReason}
          </div>
        ) : null}
        {block.status === "denied" ? (
          <p
            data-slot="chat-tool-call-denied"
            data-expired={expired || undefined}
            className="text-muted-foreground"
          >
            {deadline?.expired
              ? messages.deadline.approvalExpired(deadline.time)
              : cancelled
                ? toolCall.cancelledBeforeDecision
                : toolCall.rejectedBecause(block.approval?.reason)}
          </p>
        ) : null}
        {block.status === "running" ? (
          <p data-slot="chat-tool-call-pending" className="text-muted-foreground">
            {toolCall.waiting}
          </p>
        ) : null}
      </div>
    </details>
  );
}

export { ChatToolCall, ChatToolCallSection, ChatToolCallStatus };
