"use client";

import type * as React from "react";
import { formatNumber } from "@/hooks/format-answer";
import { cn } from "@/lib/utils";
import { useElicitationContext } from "./elicitation-context";

/** What the agent says once above the questions; renders nothing when the set has no preamble. */
function ElicitationPreamble({ className, children, ...props }: React.ComponentProps<"p">) {
  const { block } = useElicitationContext("ElicitationPreamble");
  if (block.preamble === undefined && children === undefined) return null;
  return (
    // The agent's words keep their own direction in a page of the other (`dir="auto"`).
    <p
      data-slot="elicitation-preamble"
      dir="auto"
      className={cn("text-start text-sm leading-relaxed", className)}
      {...props}
    >
      {children ?? block.preamble}
    </p>
  );
}

/**
 * "Question 1 of 3" (one at a time) or "3 questions" (all at once), in a polite live region so a
 * screen reader hears the move to the next question. The count is the set's, known up front.
 */
function ElicitationProgress({ className, ...props }: React.ComponentProps<"p">) {
  const { block, layout, index } = useElicitationContext("ElicitationProgress");
  const count = block.questions.length;
  const { form } = block.messages;
  const text =
    layout === "one-at-a-time"
      ? form.progress(index + 1, count)
      : form.count({ value: count, text: formatNumber(block.messages, count) });
  return (
    <p
      role="status"
      aria-live="polite"
      aria-atomic="true"
      data-slot="elicitation-progress"
      data-index={index}
      data-count={count}
      className={cn("text-xs font-medium tracking-wide text-muted-foreground uppercase", className)}
      {...props}
    >
      {text}
    </p>
  );
}

export { ElicitationPreamble, ElicitationProgress };
