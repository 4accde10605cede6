import type * as React from "react";
import type { ToolBlock, ToolCallStatus } from "@/hooks/transcript-types";
import { cn } from "@/lib/utils";

/** What each status reads as. */
const STATUS_LABEL: Record<ToolCallStatus, string> = {
  running: "Running",
  done: "Done",
  error: "Failed",
  denied: "Rejected",
};

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
      {children ?? STATUS_LABEL[status]}
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
 * A tool call the agent made: its name and status on one line, its input and its output (or
 * error) underneath. Opens by itself when the call failed.
 */
function ChatToolCall({
  block,
  className,
  ...props
}: React.ComponentProps<"details"> & {
  /** The tool call, as `useChatTranscript` gives it. */
  block: ToolBlock;
}) {
  // Denied with no decision: the run was cancelled while the call waited for one.
  const cancelled = block.status === "denied" && !block.approval;
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
          className="size-3.5 text-muted-foreground transition-transform group-open:rotate-90"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
        >
          <path d="m6 4 4 4-4 4" strokeLinecap="round" strokeLinejoin="round" />
        </svg>
        <span data-slot="chat-tool-call-name" className="font-medium font-mono text-xs">
          {block.toolName}
        </span>
        <ChatToolCallStatus status={block.status} className="ml-auto">
          {cancelled ? "Cancelled" : undefined}
        </ChatToolCallStatus>
      </summary>
      <div data-slot="chat-tool-call-body" className="flex flex-col gap-3 border-t px-3 py-3">
        {hasInput ? <ChatToolCallSection label="Input" value={formatValue(block.input)} /> : null}
        {block.status === "done" ? (
          <ChatToolCallSection label="Output" value={formatValue(block.output)} />
        ) : null}
        {block.status === "error" ? (
          <div data-slot="chat-tool-call-error" className="text-destructive text-sm">
            {block.errorText ?? "The tool failed."}
          </div>
        ) : null}
        {block.status === "denied" ? (
          <p data-slot="chat-tool-call-denied" className="text-muted-foreground">
            {cancelled
              ? "Cancelled with its run before anyone decided."
              : `Rejected${block.approval?.reason ? `: ${block.approval.reason}` : "."}`}
          </p>
        ) : null}
        {block.status === "running" ? (
          <p data-slot="chat-tool-call-pending" className="text-muted-foreground">
            Waiting for the result…
          </p>
        ) : null}
      </div>
    </details>
  );
}

export { ChatToolCall, ChatToolCallSection, ChatToolCallStatus };
