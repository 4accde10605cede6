"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import type { PrepickMessagesInput } from "@/hooks/prepick-messages";
import { usePrepickMessages } from "@/hooks/prepick-messages-context";
import type {
  ApprovalBlock,
  ApprovalResult,
  ApprovalState,
  ElicitationBlock,
} from "@/hooks/transcript-types";
import { useDeadline } from "@/hooks/use-deadline";
import type { ApprovalEdits } from "@/lib/prepick/core/approval-edits";
import { cn } from "@/lib/utils";
import { ApprovalChanges, ApprovalFields } from "./approval-fields";
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

/** What the approved call did; re-renders when its result arrives. */
function useApprovalResult(block: ApprovalBlock): ApprovalResult | undefined {
  return React.useSyncExternalStore(block.subscribe, block.getResult, block.getResult);
}

/** What the person changed approving an editable call; re-renders when it is known. */
function useApprovalEdits(block: ApprovalBlock): ApprovalEdits | undefined {
  return React.useSyncExternalStore(block.subscribe, block.getEdits, block.getEdits);
}

const NO_FORM = { subscribe: () => () => {}, busy: () => false };

/** Whether an editable call's form is checking or sending its fields. */
function useFormBusy(form: ElicitationBlock | undefined): boolean {
  const busy = React.useCallback(() => form?.getSnapshot().busy ?? false, [form]);
  return React.useSyncExternalStore(form?.subscribe ?? NO_FORM.subscribe, busy, busy);
}

/** The input without the fields the form shows, or undefined when nothing is left to show. */
function restOf(input: unknown, form: ElicitationBlock | undefined): unknown {
  if (!form || typeof input !== "object" || input === null || Array.isArray(input)) return input;
  const shown = new Set(form.request.questions.map((question) => question.id));
  const rest = Object.fromEntries(Object.entries(input).filter(([key]) => !shown.has(key)));
  return Object.keys(rest).length > 0 ? rest : undefined;
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
      <code dir="ltr" className="rounded bg-muted px-1 py-0.5 font-mono text-xs">
        {toolName}
      </code>
      {after.join(toolName)}
    </>
  );
}

/**
 * The focus indicator of every control inside: a solid 2px outline in the theme's ring colour, set
 * off from the control, where the primitives draw a faint halo (WCAG 2.4.7 and 2.4.13).
 */
const FOCUS_INDICATOR =
  "[&_:focus-visible]:outline-solid [&_:focus-visible]:outline-2 [&_:focus-visible]:outline-offset-2 [&_:focus-visible]:outline-ring";

/**
 * A tool call waiting for the person's word: what it would do, Approve and Reject, and an
 * optional reason the model is told on a rejection; when its run has a deadline, the time left. A
 * call whose input is editable shows its fields as a form, each pre-picked with the model's
 * proposal; Approve sends the ones changed. Shows the decision once it is made, and for an edited
 * call what ran beside what was proposed.
 */
function ChatApproval({
  block,
  autoFocus = false,
  messages: own,
  className,
  ...props
}: React.ComponentProps<"div"> & {
  /** The approval, as `useChatTranscript` gives it. */
  block: ApprovalBlock;
  /** Moves the focus to the card when it appears waiting, as a new question set takes it. */
  autoFocus?: boolean;
  /** Its words, laid over the nearest `PrepickMessagesProvider`'s (or English). */
  messages?: PrepickMessagesInput;
}) {
  const messages = usePrepickMessages(own);
  const { approval, toolCall } = messages;
  const state = useApprovalState(block);
  const result = useApprovalResult(block);
  const edits = useApprovalEdits(block);
  const form = block.form;
  const formBusy = useFormBusy(form);
  const cardRef = React.useRef<HTMLDivElement>(null);
  const status = approvalStatus(state);
  const [reason, setReason] = React.useState("");
  const reasonId = React.useId();
  const titleId = React.useId();
  const decided = state.status === "settled";
  const busy = state.status === "submitting" || formBusy;
  const approving = busy && (state.status !== "submitting" || state.approved);
  const changes = decided && state.approved && form && edits ? { form, edits } : undefined;
  const rest = changes ? restOf(block.input, form) : decided ? block.input : restOf(block.input, form);
  const deadline = useDeadline(decided ? undefined : block.expiresAt, messages.locale);
  const descriptionId = React.useId();
  const decisionId = React.useId();
  const describedBy =
    [block.description !== undefined ? descriptionId : "", decided ? decisionId : ""]
      .filter(Boolean)
      .join(" ") || undefined;

  const mounted = React.useRef(false);
  React.useEffect(() => {
    if (mounted.current) return;
    mounted.current = true;
    if (autoFocus && !decided) cardRef.current?.focus({ preventScroll: true });
  }, [autoFocus, decided]);

  // Once decided the buttons are gone: unless the person moved on, the focus goes back to the card,
  // now named for the decision and described by its line ("You approved this call.").
  const wasDecided = React.useRef(decided);
  React.useEffect(() => {
    if (decided && !wasDecided.current) {
      const active = document.activeElement;
      const lost = active === null || active === document.body || cardRef.current?.contains(active);
      if (lost) cardRef.current?.focus({ preventScroll: true });
    }
    wasDecided.current = decided;
  }, [decided]);

  const reject = () => {
    const trimmed = reason.trim();
    void block.reject(trimmed === "" ? undefined : trimmed);
  };

  return (
    <Card
      ref={cardRef}
      role="region"
      tabIndex={-1}
      data-slot="chat-approval"
      data-state={status}
      aria-labelledby={titleId}
      aria-describedby={describedBy}
      className={cn(
        "w-full min-w-0 gap-3 rounded-lg p-4 text-sm wrap-anywhere data-[state=failed]:border-destructive/40",
        "focus-visible:outline-solid focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring",
        FOCUS_INDICATOR,
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
      {block.description !== undefined ? (
        <p
          id={descriptionId}
          data-slot="chat-approval-description"
          dir="auto"
          className="text-start text-muted-foreground"
        >
          {block.description}
        </p>
      ) : null}
      {changes ? <ApprovalChanges form={changes.form} edits={changes.edits} messages={messages} /> : null}
      {!decided && form ? (
        <ApprovalFields form={form} label={approval.title(block.toolName)} hint={approval.editHint} />
      ) : null}
      {rest !== undefined ? <ChatToolCallSection label={toolCall.input} value={formatInput(rest)} /> : null}
      {deadline ? (
        <p
          data-slot="chat-approval-deadline"
          data-expired={deadline.expired || undefined}
          className="text-muted-foreground"
        >
          <time dateTime={deadline.at}>
            {deadline.expired
              ? messages.deadline.approvalExpired(deadline.time)
              : messages.deadline.decideBy(deadline.time, deadline.left)}
          </time>
        </p>
      ) : null}
      {decided ? (
        <>
          <p id={decisionId} data-slot="chat-approval-decision" className="rounded-sm text-muted-foreground">
            {state.approved
              ? changes && changes.edits.edited.length > 0
                ? approval.approvedWithEdits
                : approval.approved
              : approval.rejected(state.reason)}
            {state.conflict ? ` ${approval.decidedElsewhere}` : null}
          </p>
          {result?.status === "running" ? (
            <p data-slot="chat-approval-running" className="text-muted-foreground">
              {toolCall.waiting}
            </p>
          ) : null}
          {result?.status === "done" ? (
            <ChatToolCallSection label={toolCall.output} value={formatInput(result.output)} />
          ) : null}
          {result?.status === "error" ? (
            <p data-slot="chat-approval-error" className="text-destructive">
              {result.errorText}
            </p>
          ) : null}
        </>
      ) : (
        <>
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
              aria-busy={approving ? true : undefined}
              onClick={() => void block.approve()}
            >
              {approving ? approval.approving : approval.approve}
            </Button>
            <Button
              type="button"
              size="sm"
              variant="outline"
              disabled={busy}
              aria-busy={busy && !approving ? true : undefined}
              onClick={reject}
            >
              {busy && !approving ? approval.rejecting : approval.reject}
            </Button>
          </div>
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
                // Enter in the reason field means "reject with this reason", never a form submit; in
                // an empty field it does nothing, since a decision is never made by a stray key.
                if (event.key === "Enter" && !event.nativeEvent.isComposing) {
                  event.preventDefault();
                  if (reason.trim() !== "") reject();
                }
              }}
            />
          </div>
        </>
      )}
    </Card>
  );
}

export { ChatApproval, type ChatApprovalStatus };
