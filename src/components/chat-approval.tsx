"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { ApprovalBlock, ApprovalState } from "@/hooks/transcript-types";
import { cn } from "@/lib/utils";
import { ChatToolCallSection } from "./chat-tool-call";

/** Where an approval stands, as one word for `data-state`. */
type ChatApprovalStatus = "pending" | "submitting" | "failed" | "approved" | "rejected";

/** The `data-state` of an approval machine's state. */
function approvalStatus(state: ApprovalState): ChatApprovalStatus {
  switch (state.status) {
    case "idle":
      return "pending";
    case "submitting":
    case "failed":
      return state.status;
    case "settled":
      return state.approved ? "approved" : "rejected";
  }
}

/** The approval machine's current state; re-renders when it changes. */
function useApprovalState(block: ApprovalBlock): ApprovalState {
  return React.useSyncExternalStore(block.subscribe, block.getSnapshot, block.getSnapshot);
}

/** Input as the person judges it: strings as they are, anything else as indented JSON. */
function formatInput(input: unknown): string {
  if (typeof input === "string") return input;
  try {
    return JSON.stringify(input, null, 2) ?? String(input);
  } catch {
    return String(input);
  }
}

/**
 * A tool call waiting for the person's word: what it would do, Approve and Reject, and an
 * optional reason the model is told on a rejection. Shows the decision once it is made.
 */
function ChatApproval({
  block,
  className,
  ...props
}: React.ComponentProps<"div"> & {
  /** The approval, as `useChatTranscript` gives it. */
  block: ApprovalBlock;
}) {
  const state = useApprovalState(block);
  const status = approvalStatus(state);
  const [reason, setReason] = React.useState("");
  const reasonId = React.useId();
  const titleId = React.useId();
  const decided = state.status === "settled";
  const busy = state.status === "submitting";

  const reject = () => {
    const trimmed = reason.trim();
    void block.reject(trimmed === "" ? undefined : trimmed);
  };

  return (
    <Card
      role="region"
      data-slot="chat-approval"
      data-state={status}
      aria-labelledby={titleId}
      className={cn(
        "w-full min-w-0 gap-3 rounded-lg p-4 text-sm wrap-anywhere data-[state=failed]:border-destructive/40",
        className,
      )}
      {...props}
    >
      <div data-slot="chat-approval-header" className="flex items-center gap-2">
        <p id={titleId} data-slot="chat-approval-title" className="font-medium">
          {decided ? "Tool call " : "Allow "}
          <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs">{block.toolName}</code>
          {decided ? (state.approved ? " approved" : " rejected") : " to run?"}
        </p>
      </div>
      <ChatToolCallSection label="Input" value={formatInput(block.input)} />
      {decided ? (
        <p data-slot="chat-approval-decision" className="text-muted-foreground">
          {state.approved ? "You approved this call." : "You rejected this call."}
          {!state.approved && state.reason ? ` Reason: ${state.reason}` : null}
          {state.conflict ? " (It had already been decided elsewhere.)" : null}
        </p>
      ) : (
        <>
          <div data-slot="chat-approval-field" className="flex flex-col gap-1.5">
            <Label htmlFor={reasonId} className="text-muted-foreground text-xs">
              Reason, if you reject (optional)
            </Label>
            <Input
              id={reasonId}
              data-slot="chat-approval-reason"
              value={reason}
              disabled={busy}
              onChange={(event) => setReason(event.target.value)}
              onKeyDown={(event) => {
                // Enter in the reason field means "reject with this reason", never a form submit.
                if (event.key === "Enter" && !event.nativeEvent.isComposing) {
                  event.preventDefault();
                  reject();
                }
              }}
            />
          </div>
          {state.status === "failed" ? (
            <p data-slot="chat-approval-error" role="alert" className="text-destructive">
              {state.error}
            </p>
          ) : null}
          <div data-slot="chat-approval-actions" className="flex flex-wrap gap-2">
            {state.status === "failed" ? (
              <Button type="button" size="sm" onClick={() => void block.retry()}>
                Retry
              </Button>
            ) : null}
            <Button
              type="button"
              size="sm"
              variant={state.status === "failed" ? "outline" : "default"}
              disabled={busy}
              aria-busy={busy && state.approved ? true : undefined}
              onClick={() => void block.approve()}
            >
              {busy && state.approved ? "Approving…" : "Approve"}
            </Button>
            <Button
              type="button"
              size="sm"
              variant="outline"
              disabled={busy}
              aria-busy={busy && !state.approved ? true : undefined}
              onClick={reject}
            >
              {busy && !state.approved ? "Rejecting…" : "Reject"}
            </Button>
          </div>
        </>
      )}
    </Card>
  );
}

export { ChatApproval, type ChatApprovalStatus };
