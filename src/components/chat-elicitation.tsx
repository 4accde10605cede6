"use client";

import * as React from "react";
import { Card } from "@/components/ui/card";
import type { ElicitationBlock } from "@/hooks/transcript-types";
import { useDeadline } from "@/hooks/use-deadline";
import { useElicitationSelector } from "@/hooks/use-elicitation";
import { cn } from "@/lib/utils";
import { ElicitationActions, ElicitationHints, ElicitationStatus } from "./elicitation-actions";
import type { ElicitationLayout } from "./elicitation-context";
import { ElicitationDeadline, ElicitationPreamble, ElicitationProgress } from "./elicitation-progress";
import { ElicitationQuestion } from "./elicitation-question";
import { ElicitationRoot } from "./elicitation-root";
import { ElicitationSettled } from "./elicitation-settled";

/**
 * The focus indicator of every control inside: a solid 2px outline in the theme's ring colour, set
 * off from the control, where the primitives draw a faint halo (WCAG 2.4.7 and 2.4.13).
 */
const FOCUS_INDICATOR =
  "[&_:focus-visible]:outline-solid [&_:focus-visible]:outline-2 [&_:focus-visible]:outline-offset-2 [&_:focus-visible]:outline-ring";

/**
 * The question set of an agent's turn, inline in the transcript, on the app's own `Card`: the
 * preamble, the progress, each question with its pre-picked answer, and confirm and skip, all by
 * keyboard, and when its run has a deadline, the time left. Once settled the card shows the
 * outcome instead of the form; once dismissed, a line saying so (or that it expired unanswered). `className` styles the card; the other props go to the form.
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
  const deadline = useDeadline(block.expiresAt, block.messages.locale);
  const cardRef = React.useRef<HTMLDivElement>(null);
  const previousPhase = React.useRef(phase);
  React.useEffect(() => {
    // The form the focus was in is gone; unless the person moved on, keep them at this block, on
    // the outcome (a group named "Answered" or "Skipped…") where there is one.
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (previousPhase.current === "pending" && phase !== "pending" && lost) {
      const card = cardRef.current;
      const outcome = card?.querySelector<HTMLElement>("[data-slot=elicitation-settled]");
      (outcome ?? card)?.focus({ preventScroll: true });
    }
    previousPhase.current = phase;
  }, [phase]);
  return (
    <Card
      ref={cardRef}
      tabIndex={-1}
      data-slot="chat-elicitation"
      data-phase={phase}
      // A prompt, an option or an answer may hold a word longer than the card: it breaks anywhere.
      className={cn(
        "min-w-0 gap-4 p-4 wrap-anywhere outline-none max-sm:gap-3 max-sm:p-3",
        FOCUS_INDICATOR,
        className,
      )}
    >
      {phase === "settled" ? (
        <ElicitationSettled block={block} />
      ) : phase === "dismissed" ? (
        <p
          data-slot="elicitation-dismissed"
          data-expired={deadline?.expired || undefined}
          className="text-muted-foreground text-sm"
        >
          {deadline?.expired
            ? block.messages.deadline.questionsExpired(deadline.time)
            : block.messages.settled.dismissed}
        </p>
      ) : (
        <ElicitationRoot
          block={block}
          layout={layout}
          autoFocus={autoFocus}
          aria-label={props["aria-label"] ?? block.messages.form.label}
          {...props}
        >
          <ElicitationPreamble />
          <ElicitationDeadline />
          <ElicitationProgress />
          {block.questions.map((question) => (
            <ElicitationQuestion key={question.id} questionId={question.id} />
          ))}
          <ElicitationStatus />
          <ElicitationActions />
          <ElicitationHints />
        </ElicitationRoot>
      )}
    </Card>
  );
}

export { ChatElicitation };
