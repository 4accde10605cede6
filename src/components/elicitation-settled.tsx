"use client";

import * as React from "react";
import type { PrepickMessages } from "@/hooks/prepick-messages";
import type { ElicitationBlock, ElicitationSettled as Settled } from "@/hooks/transcript-types";
import { useElicitationSelector } from "@/hooks/use-elicitation";
import { cn } from "@/lib/utils";
import { ElicitationPrePicked } from "./elicitation-option";

/** "Answered", or "Skipped…": the agent's picks stand, or (some question had none) it decides. */
function settledHeading(settled: Settled, messages: PrepickMessages): string {
  if (!settled.skipped) return messages.settled.answered;
  const toAgent = settled.answers.some((answer) => answer.kind === "left-to-agent");
  return toAgent ? messages.settled.skippedToAgent : messages.settled.skipped;
}

/**
 * A settled question set, drawn from its outcome and never as a live form: each question with
 * the chosen labels, the ones left at the agent's picks marked "pre-picked", and whether the
 * person skipped. Renders nothing while the set is pending.
 */
function ElicitationSettled({
  block,
  className,
  ...props
}: React.ComponentProps<"div"> & {
  /** The question set. */
  block: ElicitationBlock;
}) {
  const settled = useElicitationSelector(block, (snapshot) => snapshot.settled);
  const headingId = React.useId();
  if (!settled) return null;
  const status = settled.skipped ? "skipped" : "answered";
  return (
    // A group named by its heading, which the card focuses when the form it replaced had the
    // focus: a screen reader says "Answered" (or "Skipped…") where the questions were.
    // biome-ignore lint/a11y/useSemanticElements: answers read back, not controls: a fieldset would be a form's group.
    <div
      role="group"
      aria-labelledby={headingId}
      tabIndex={-1}
      data-slot="elicitation-settled"
      data-status={status}
      className={cn("flex flex-col gap-3 text-sm", className)}
      {...props}
    >
      <p id={headingId} data-slot="elicitation-settled-heading" className="font-medium">
        {settledHeading(settled, block.messages)}
      </p>
      <dl className="grid gap-2">
        {settled.answers.map((answer) => (
          <div
            key={answer.questionId}
            data-slot="elicitation-settled-answer"
            data-question-id={answer.questionId}
            data-defaulted={answer.defaulted ? "true" : undefined}
            className="grid min-w-0 gap-0.5"
          >
            <dt dir="auto" className="text-start text-muted-foreground">
              {answer.prompt}
            </dt>
            <dd className="flex min-w-0 flex-wrap items-center gap-2 font-medium whitespace-pre-wrap">
              {answer.labels.length > 0
                ? answer.labels.map((label, index) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: the labels of one settled answer never move.
                    <React.Fragment key={index}>
                      {index > 0 ? ", " : null}
                      <bdi>{label}</bdi>
                    </React.Fragment>
                  ))
                : answer.kind === "left-to-agent"
                  ? block.messages.settled.leftToAgent
                  : block.messages.settled.noAnswer}
              {answer.defaulted ? (
                <ElicitationPrePicked>{block.messages.settled.prePicked}</ElicitationPrePicked>
              ) : null}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

export { ElicitationSettled };
