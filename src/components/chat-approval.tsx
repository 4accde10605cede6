"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { PrepickMessagesInput } from "@/hooks/prepick-messages";
import { usePrepickMessages } from "@/hooks/prepick-messages-context";
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

/** A sentence naming the tool, the name set in code wherever the language puts it. */
function ToolSentence({ sentence, toolName }: { sentence: (toolName: string) => string; toolName: string }) {
  const marker = "\u0000";
  const [before = "", ...after] = sentence(marker).split(marker);
  return (
    <>
      {before}
      <code className="rounded bg-muted px-1 py-0.5 font-mono text-xs">{toolName}</code>
      {after.join(toolName)}
    </>
  );
}

/**
 * A tool call waiting for the person's word: what it would do, Approve and Reject, and an
 * optional reason the model is told on a rejection. Shows the decision once it is made.
 */
function ChatApproval({
  block,
  messages: own,
  className,
  ...props
}: React.ComponentProps<"div"> & {
  /** The approval, as `useChatTranscript` gives it. */
  block: ApprovalBlock;
  /** Its words, laid over the nearest `PrepickMessagesProvider`'s (or English). */
  messages?: PrepickMessagesInput;
}) {
  const { approval, toolCall } = usePrepickMessages(own);
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
        "w-full gap-3 rounded-lg p-4 text-sm data-[state=failed]:border-destructive/40",
        className,
      )}
      {...props}
    >
      <div data-slot="chat-approval-header" className="flex items-center gap-2">
        <p id={titleId} data-slot="chat-approval-title" className="font-medium">
          <ToolSentence
            toolName={block.toolName}
            sentence={
              decided ? (state.approved ? approval.approvedTitle : approval.rejectedTitle) : approval.title
            }
          />
        </p>
      </div>
      <ChatToolCallSection label={toolCall.input} value={formatInput(block.input)} />
      {decided ? (
        <p data-slot="chat-approval-decision" className="text-muted-foreground">
          {state.approved ? approval.approved : approval.rejected(state.reason)}
          {state.conflict ? ` ${approval.decidedElsewhere}` : null}
        </p>
      ) : (
        <>
          <div data-slot="chat-approval-field" className="flex flex-col gap-1.5">
            <Label htmlFor={reasonId} className="text-muted-foreground text-xs">
              {approval.reason}
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
              {approval.notSent(state.error)}
            </p>
          ) : null}
          <div data-slot="chat-approval-actions" className="flex flex-wrap gap-2">
            {state.status === "failed" ? (
              <Button type="button" size="sm" onClick={() => void block.retry()}>
                {approval.retry}
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
              {busy && state.approved ? approval.approving : approval.approve}
            </Button>
            <Button
              type="button"
              size="sm"
              variant="outline"
              disabled={busy}
              aria-busy={busy && !state.approved ? true : undefined}
              onClick={reject}
            >
              {busy && !state.approved ? approval.rejecting : approval.reject}
            </Button>
          </div>
        </>
      )}
    </Card>
  );
}

export { ChatApproval, type ChatApprovalStatus };
