"use client";

import type * as React from "react";
import { Button } from "@/components/ui/button";
import { useElicitationSelector } from "@/hooks/use-elicitation";
import { cn } from "@/lib/utils";
import { useElicitationContext } from "./elicitation-context";
import { ElicitationKey } from "./elicitation-option";

/**
 * Back (one at a time, after the first question), Next or Confirm, and Skip (the agent's picks stand).
 * Confirm submits only what the person touched; the server fills the rest from the defaults.
 */
function ElicitationActions({ className, children, ...props }: React.ComponentProps<"div">) {
  const { block, layout, index, busy, answer, skip, previous, skipAll } =
    useElicitationContext("ElicitationActions");
  const last = layout === "all-at-once" || index >= block.questions.length - 1;
  if (skip.status === "confirming") return <ElicitationSkipConfirm className={className} />;
  const { form } = block.messages;
  return (
    <div
      data-slot="elicitation-actions"
      className={cn("flex flex-wrap items-center gap-2", className)}
      {...props}
    >
      {layout === "one-at-a-time" && index > 0 ? (
        <Button type="button" variant="ghost" data-slot="elicitation-back" disabled={busy} onClick={previous}>
          {form.back}
        </Button>
      ) : null}
      <Button type="submit" data-slot="elicitation-confirm" aria-keyshortcuts="Enter" disabled={busy}>
        {answer.status === "submitting" ? form.sending : last ? form.confirm : form.next}
      </Button>
      <Button
        type="button"
        variant="outline"
        data-slot="elicitation-skip"
        aria-keyshortcuts="s"
        disabled={busy}
        onClick={() => void skipAll()}
      >
        {skip.status === "submitting" ? form.skipping : form.skip}
      </Button>
      {children}
    </div>
  );
}

/**
 * Asked once, in place of the buttons, when the person skips after changing answers: discard the
 * changes and let the agent's picks stand, or keep them. `s` again confirms, Escape keeps.
 */
function ElicitationSkipConfirm({ className, ...props }: React.ComponentProps<"fieldset">) {
  const { block, skipAll, cancelSkip } = useElicitationContext("ElicitationSkipConfirm");
  const { question, discard, keep } = block.messages.skipConfirm;
  return (
    <fieldset
      data-slot="elicitation-skip-confirm"
      className={cn("flex min-w-0 flex-col gap-2", className)}
      {...props}
    >
      <legend className="mb-2 text-sm">{question}</legend>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" data-slot="elicitation-skip-keep" onClick={cancelSkip}>
          {keep}
        </Button>
        <Button
          type="button"
          variant="outline"
          data-slot="elicitation-skip-discard"
          aria-keyshortcuts="s"
          onClick={() => void skipAll()}
        >
          {discard}
        </Button>
      </div>
    </fieldset>
  );
}

/** The keyboard hints the spec draws: "⏎ confirm" (or "next question") and "s skip". */
function ElicitationHints({ className, ...props }: React.ComponentProps<"p">) {
  const { block, layout, index } = useElicitationContext("ElicitationHints");
  const { hints } = block.messages;
  const last = layout === "all-at-once" || index >= block.questions.length - 1;
  return (
    <p
      data-slot="elicitation-hints"
      className={cn("flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground", className)}
      {...props}
    >
      <span className="inline-flex items-center gap-1.5">
        <ElicitationKey>⏎</ElicitationKey> {last ? hints.confirm : hints.next}
      </span>
      <span className="inline-flex items-center gap-1.5">
        <ElicitationKey>s</ElicitationKey> {hints.skip}
      </span>
    </p>
  );
}

/** The status of the whole form: what failed and a Retry, or a refusal no question can show. */
function ElicitationStatus({ className, ...props }: React.ComponentProps<"div">) {
  const { block, busy, retry } = useElicitationContext("ElicitationStatus");
  const message = useElicitationSelector(block, (snapshot) => snapshot.error);
  const retryable = useElicitationSelector(block, (snapshot) => snapshot.canRetry);
  if (message === undefined) return null;
  return (
    <div
      role="alert"
      tabIndex={-1}
      data-slot="elicitation-status"
      className={cn(
        "flex flex-wrap items-center justify-between gap-3 rounded-md border border-destructive/50 px-3 py-2 text-sm text-destructive outline-none",
        className,
      )}
      {...props}
    >
      <span>{message}</span>
      {retryable ? (
        <Button
          type="button"
          variant="outline"
          data-slot="elicitation-retry"
          disabled={busy}
          onClick={() => void retry()}
        >
          {block.messages.form.retry}
        </Button>
      ) : null}
    </div>
  );
}

export { ElicitationActions, ElicitationHints, ElicitationSkipConfirm, ElicitationStatus };
