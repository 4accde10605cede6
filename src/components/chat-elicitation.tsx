"use client";

import * as React from "react";
import type { ElicitationBlock } from "@/hooks/transcript-types";
import { useElicitationSelector } from "@/hooks/use-elicitation";
import { cn } from "@/lib/utils";
import { ElicitationActions, ElicitationHints, ElicitationStatus } from "./elicitation-actions";
import type { ElicitationLayout } from "./elicitation-context";
import { ElicitationPreamble, ElicitationProgress } from "./elicitation-progress";
import { ElicitationQuestion } from "./elicitation-question";
import { ElicitationRoot } from "./elicitation-root";
import { ElicitationSettled } from "./elicitation-settled";

const cardClasses = "rounded-xl border bg-card p-4 text-card-foreground shadow-sm";

/**
 * The question set of an agent's turn, inline in the transcript: the preamble, the progress,
 * each question with its pre-picked answer, and confirm and skip, all by keyboard. Once settled
 * it shows the outcome instead of the form; once dismissed, a line saying so.
 */
function ChatElicitation({
  block,
  layout = "one-at-a-time",
  autoFocus,
  className,
  ...props
}: Omit<React.ComponentProps<"form">, "children"> & {
  /** The question set, from `useChatTranscript` or `createElicitation`. */
  block: ElicitationBlock;
  /** One question at a time (the default), or all at once. */
  layout?: ElicitationLayout;
  /** Moves the focus into the form when it appears, so hotkeys work at once. */
  autoFocus?: boolean;
}) {
  const phase = useElicitationSelector(block, (snapshot) => snapshot.phase);
  const outcomeRef = React.useRef<HTMLElement>(null);
  const previousPhase = React.useRef(phase);
  React.useEffect(() => {
    // The form the focus was in is gone; unless the person moved on, keep them at this block.
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (previousPhase.current === "pending" && phase !== "pending" && lost) {
      outcomeRef.current?.focus({ preventScroll: true });
    }
    previousPhase.current = phase;
  }, [phase]);
  if (phase === "settled") {
    return (
      <ElicitationSettled
        ref={(element) => {
          outcomeRef.current = element;
        }}
        tabIndex={-1}
        block={block}
        className={cn(cardClasses, "outline-none", className)}
      />
    );
  }
  if (phase === "dismissed") {
    return (
      <p
        ref={(element) => {
          outcomeRef.current = element;
        }}
        tabIndex={-1}
        data-slot="elicitation-dismissed"
        className={cn(cardClasses, "text-sm text-muted-foreground outline-none", className)}
      >
        These questions were not answered: the run was cancelled.
      </p>
    );
  }
  return (
    <ElicitationRoot
      block={block}
      layout={layout}
      autoFocus={autoFocus}
      aria-label={props["aria-label"] ?? "Questions from the agent"}
      className={cn(cardClasses, className)}
      {...props}
    >
      <ElicitationPreamble />
      <ElicitationProgress />
      {block.questions.map((question) => (
        <ElicitationQuestion key={question.id} questionId={question.id} />
      ))}
      <ElicitationStatus />
      <ElicitationActions />
      <ElicitationHints />
    </ElicitationRoot>
  );
}

export { ChatElicitation };
