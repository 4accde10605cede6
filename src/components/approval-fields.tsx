"use client";

import * as React from "react";
import { describeEdits } from "@/hooks/describe-edits";
import type { PrepickMessages } from "@/hooks/prepick-messages";
import type { ElicitationBlock } from "@/hooks/transcript-types";
import type { ApprovalEdits } from "@/lib/prepick/core/approval-edits";
import { cn } from "@/lib/utils";
import { elicitationKeyTarget } from "./elicitation-keys";
import { ElicitationPrePicked } from "./elicitation-option";
import { ElicitationQuestion } from "./elicitation-question";
import { ElicitationRoot } from "./elicitation-root";

/**
 * An editable call's fields while it waits: each a question pre-picked with the model's proposal
 * ("proposed" where its value is kept), all at once, by keyboard as a question set is. Enter in
 * the form approves with the fields as they stand; `s` skips nothing, since an approval is
 * rejected instead.
 */
function ApprovalFields({
  form,
  label,
  hint,
  className,
  onKeyDown,
  ...props
}: Omit<React.ComponentProps<"form">, "children"> & {
  /** The block's form. */
  form: ElicitationBlock;
  /** The form's accessible name. */
  label: string;
  /** The line above the fields. */
  hint: string;
}) {
  const hintId = React.useId();
  return (
    <ElicitationRoot
      block={form}
      layout="all-at-once"
      aria-label={label}
      aria-describedby={hintId}
      className={cn("gap-3", className)}
      onKeyDown={(event) => {
        onKeyDown?.(event);
        // The question set's skip key has no meaning here: a call is rejected, with its button.
        const target = elicitationKeyTarget(event.target);
        if (event.key.toLowerCase() === "s" && target !== "field" && target !== "multiline") {
          event.preventDefault();
        }
      }}
      {...props}
    >
      <p id={hintId} data-slot="chat-approval-hint" className="text-muted-foreground">
        {hint}
      </p>
      {form.questions.map((question) => (
        <ElicitationQuestion key={question.id} questionId={question.id} />
      ))}
    </ElicitationRoot>
  );
}

/**
 * An approved editable call's fields: the value each ran with, the changed ones marked with what
 * the model had proposed, the others marked "proposed".
 */
function ApprovalChanges({
  form,
  edits,
  messages,
  className,
  ...props
}: React.ComponentProps<"dl"> & {
  /** The approval's form: its fields, each pre-picked with the model's proposal. */
  form: ElicitationBlock;
  /** What the person changed. */
  edits: ApprovalEdits;
  /** The card's words. */
  messages: PrepickMessages;
}) {
  const fields = React.useMemo(
    () => describeEdits(form.request.questions, edits, form.messages),
    [form, edits],
  );
  return (
    <dl data-slot="chat-approval-changes" className={cn("grid gap-2", className)} {...props}>
      {fields.map((field) => (
        <div
          key={field.questionId}
          data-slot="chat-approval-change"
          data-edited={field.edited ? "true" : undefined}
          className="flex min-w-0 flex-col gap-0.5"
        >
          <dt className="text-muted-foreground text-xs">{field.prompt}</dt>
          <dd className="flex flex-wrap items-center gap-x-2 gap-y-1">
            <span className={cn(field.edited && "font-medium")}>
              {field.labels.join(", ") || form.messages.settled.noAnswer}
            </span>
            {field.edited ? (
              <span data-slot="chat-approval-was" className="text-muted-foreground">
                {messages.approval.wasProposed(field.proposed.join(", ") || form.messages.settled.noAnswer)}
              </span>
            ) : (
              <ElicitationPrePicked>{messages.approval.proposed}</ElicitationPrePicked>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

export { ApprovalChanges, ApprovalFields };
