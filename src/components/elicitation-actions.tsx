"use client";

import { cva } from "class-variance-authority";
import type * as React from "react";
import { useElicitationSelector } from "@/hooks/use-elicitation";
import { cn } from "@/lib/utils";
import { useElicitationContext } from "./elicitation-context";
import { kbdClasses } from "./elicitation-option";

/** The form's buttons, in shadcn's button styles. */
const elicitationButtonVariants = cva(
  "inline-flex h-9 shrink-0 items-center justify-center gap-2 rounded-md px-4 text-sm font-medium whitespace-nowrap outline-none transition-all focus-visible:border-ring focus-visible:ring-[3px] focus-visible:ring-ring/50 disabled:pointer-events-none disabled:cursor-not-allowed motion-reduce:transition-none",
  {
    variants: {
      variant: {
        default: "bg-primary text-primary-foreground shadow-xs hover:bg-primary/90",
        outline:
          "border bg-background shadow-xs hover:bg-accent hover:text-accent-foreground dark:border-input dark:bg-input/30 dark:hover:bg-input/50",
        ghost: "hover:bg-accent hover:text-accent-foreground dark:hover:bg-accent/50",
      },
    },
    defaultVariants: { variant: "default" },
  },
);

/**
 * Back (one at a time, after the first question), Next or Confirm, and "Skip and use my picks".
 * Confirm submits only what the person touched; the server fills the rest from the defaults.
 */
function ElicitationActions({ className, children, ...props }: React.ComponentProps<"div">) {
  const { block, layout, index, busy, answer, skip, previous, skipAll } =
    useElicitationContext("ElicitationActions");
  const last = layout === "all-at-once" || index >= block.questions.length - 1;
  if (skip.status === "confirming") return <ElicitationSkipConfirm className={className} />;
  return (
    <div
      data-slot="elicitation-actions"
      className={cn("flex flex-wrap items-center gap-2", className)}
      {...props}
    >
      {layout === "one-at-a-time" && index > 0 ? (
        <button
          type="button"
          data-slot="elicitation-back"
          disabled={busy}
          onClick={previous}
          className={elicitationButtonVariants({ variant: "ghost" })}
        >
          Back
        </button>
      ) : null}
      <button
        type="submit"
        data-slot="elicitation-confirm"
        aria-keyshortcuts="Enter"
        disabled={busy}
        className={elicitationButtonVariants()}
      >
        {answer.status === "submitting" ? "Sending…" : last ? "Confirm" : "Next"}
      </button>
      <button
        type="button"
        data-slot="elicitation-skip"
        aria-keyshortcuts="s"
        disabled={busy}
        onClick={() => void skipAll()}
        className={elicitationButtonVariants({ variant: "outline" })}
      >
        {skip.status === "submitting" ? "Skipping…" : "Skip and use my picks"}
      </button>
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
        <button
          type="button"
          data-slot="elicitation-skip-keep"
          onClick={cancelSkip}
          className={elicitationButtonVariants()}
        >
          {keep}
        </button>
        <button
          type="button"
          data-slot="elicitation-skip-discard"
          aria-keyshortcuts="s"
          onClick={() => void skipAll()}
          className={elicitationButtonVariants({ variant: "outline" })}
        >
          {discard}
        </button>
      </div>
    </fieldset>
  );
}

/** The keyboard hints the spec draws: "⏎ confirm" and "s skip and use my picks". */
function ElicitationHints({ className, ...props }: React.ComponentProps<"p">) {
  return (
    <p
      data-slot="elicitation-hints"
      className={cn("flex flex-wrap items-center gap-x-4 gap-y-1 text-xs text-muted-foreground", className)}
      {...props}
    >
      <span className="inline-flex items-center gap-1.5">
        <kbd className={kbdClasses}>⏎</kbd> confirm
      </span>
      <span className="inline-flex items-center gap-1.5">
        <kbd className={kbdClasses}>s</kbd> skip and use my picks
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
        <button
          type="button"
          data-slot="elicitation-retry"
          disabled={busy}
          onClick={() => void retry()}
          className={elicitationButtonVariants({ variant: "outline" })}
        >
          Retry
        </button>
      ) : null}
    </div>
  );
}

export {
  ElicitationActions,
  ElicitationHints,
  ElicitationSkipConfirm,
  ElicitationStatus,
  elicitationButtonVariants,
};
