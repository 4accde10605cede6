"use client";

import * as React from "react";
import { formatNumber } from "@/hooks/format-answer";
import { useDeadline } from "@/hooks/use-deadline";
import { cn } from "@/lib/utils";
import { useElicitationContext } from "./elicitation-context";

/**
 * What the agent says once above the questions; renders nothing when the set has no preamble. A
 * screen reader hears it with the first question, which it describes.
 */
function ElicitationPreamble({ className, children, ...props }: React.ComponentProps<"p">) {
  const { block, baseId, showLead } = useElicitationContext("ElicitationPreamble");
  const shown = block.preamble !== undefined || children !== undefined;
  React.useLayoutEffect(() => (shown ? showLead("preamble") : undefined), [shown, showLead]);
  if (!shown) return null;
  return (
    // The agent's words keep their own direction in a page of the other (`dir="auto"`).
    <p
      id={`${baseId}-preamble`}
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
 * "Question 1 of 3" (one at a time) or "3 questions" (all at once). One at a time it is a
 * progress bar whose value is that text. It is not a live region: the question it counts takes
 * the focus as it is shown and is described by it, so a screen reader hears each step once, with
 * its prompt. The count is the set's, known up front.
 */
function ElicitationProgress({ className, ...props }: React.ComponentProps<"p">) {
  const { block, layout, index, baseId, showLead } = useElicitationContext("ElicitationProgress");
  React.useLayoutEffect(() => showLead("progress"), [showLead]);
  const count = block.questions.length;
  const { form } = block.messages;
  const textId = `${baseId}-progress`;
  const shared = {
    "data-slot": "elicitation-progress",
    "data-index": index,
    "data-count": count,
    className: cn("text-xs font-medium tracking-wide text-muted-foreground uppercase", className),
    ...props,
  };
  if (layout === "all-at-once") {
    return (
      <p {...shared}>
        <span id={textId}>{form.count({ value: count, text: formatNumber(block.messages, count) })}</span>
      </p>
    );
  }
  const text = form.progress(index + 1, count);
  return (
    <p
      role="progressbar"
      aria-labelledby={textId}
      aria-valuemin={1}
      aria-valuemax={count}
      aria-valuenow={index + 1}
      aria-valuetext={text}
      {...shared}
    >
      <span id={textId}>{text}</span>
    </p>
  );
}

/**
 * When the set must be answered by and how long is left, when its run has an opt-in deadline
 * (kept current, not a live region: a countdown read aloud every second would drown the form);
 * renders nothing otherwise, as a set without one waits as long as it takes.
 */
function ElicitationDeadline({ className, ...props }: React.ComponentProps<"p">) {
  const { block } = useElicitationContext("ElicitationDeadline");
  const deadline = useDeadline(block.expiresAt, block.messages.locale);
  if (!deadline) return null;
  const { deadline: words } = block.messages;
  return (
    <p
      data-slot="elicitation-deadline"
      data-expired={deadline.expired || undefined}
      className={cn("text-sm text-muted-foreground", className)}
      {...props}
    >
      <time dateTime={deadline.at}>
        {deadline.expired
          ? words.questionsLapsed(deadline.time)
          : words.answerBy(deadline.time, deadline.left)}
      </time>
    </p>
  );
}

export { ElicitationDeadline, ElicitationPreamble, ElicitationProgress };
