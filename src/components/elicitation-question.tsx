"use client";

import * as React from "react";
import type { ElicitationAttempt } from "@/hooks/transcript-types";
import { useElicitationQuestion, useElicitationSelector } from "@/hooks/use-elicitation";
import { withHotkeys } from "@/lib/prepick/core/check-questions";
import { cn } from "@/lib/utils";
import { elicitationChoices } from "./elicitation-choices";
import {
  type ElicitationQuestionContextValue,
  ElicitationQuestionProvider,
  useElicitationContext,
  useElicitationQuestionContext,
} from "./elicitation-context";
import { ElicitationFreeText, ElicitationInput } from "./elicitation-input";
import { ElicitationOptions, ElicitationPrePicked } from "./elicitation-option";

/** Typed fields show their error once left or confirmed, not while the first characters go in. */
function showsErrorAtOnce(question: ElicitationQuestionContextValue["question"]): boolean {
  const type = question.input?.type;
  return type === undefined || type === "boolean" || type === "select";
}

/**
 * One question as a `<fieldset>`: provides its state to the parts inside (legend, description,
 * control, error). Subscribes to this question only, so a keystroke elsewhere does not re-render
 * it. In the one-at-a-time layout only the current question is shown.
 */
function ElicitationQuestion({
  questionId,
  className,
  children,
  onBlur,
  ...props
}: React.ComponentProps<"fieldset"> & {
  /** The id of the question to show. */
  questionId: string;
}) {
  const root = useElicitationContext("ElicitationQuestion");
  const state = useElicitationQuestion(root.block, questionId);
  const question = React.useMemo(() => withHotkeys(state.question), [state.question]);
  const messages = root.block.messages;
  const choices = React.useMemo(() => elicitationChoices(question, messages), [question, messages]);
  const [left, setLeft] = React.useState(false);
  const baseId = `${root.baseId}-${state.index}`;
  const revealed = left || state.attempted || showsErrorAtOnce(question);
  const error = revealed ? state.error : undefined;
  const { lead, layout } = root;
  const current = layout === "all-at-once" || state.index === root.index;
  // A typed field carries the prompt and the help itself; a group around it would say them twice.
  const type = question.input?.type;
  const grouped =
    type === undefined || type === "boolean" || (type === "select" && question.allowFreeText === true);

  const context = React.useMemo<ElicitationQuestionContextValue>(() => {
    const ids = {
      legend: `${baseId}-legend`,
      description: `${baseId}-description`,
      error: `${baseId}-error`,
      control: `${baseId}-control`,
      count: `${baseId}-count`,
    };
    // The set's own lines come first: the preamble with the first question, the progress with the
    // question it counts (one at a time), or the count with the first (all at once).
    const first = state.index === 0;
    const describedBy = [
      first ? lead.preamble : undefined,
      layout === "one-at-a-time" || first ? lead.progress : undefined,
      state.description !== undefined ? ids.description : undefined,
      state.characters !== undefined ? ids.count : undefined,
      error !== undefined ? ids.error : undefined,
    ].filter((id) => id !== undefined);
    return {
      state,
      question,
      choices,
      messages,
      error,
      disabled: root.busy,
      ids,
      describedBy: describedBy.length > 0 ? describedBy.join(" ") : undefined,
    };
  }, [state, question, choices, messages, error, root.busy, lead, layout, baseId]);

  return (
    <ElicitationQuestionProvider value={context}>
      <fieldset
        data-slot="elicitation-question"
        data-question-id={questionId}
        data-invalid={error !== undefined ? "true" : undefined}
        data-touched={state.touched ? "true" : undefined}
        hidden={!current}
        disabled={root.busy}
        role={grouped ? undefined : "none"}
        // A group takes the focus itself as it is shown (its prompt is heard before any option).
        tabIndex={grouped ? -1 : undefined}
        aria-describedby={grouped ? context.describedBy : undefined}
        className={cn("flex min-w-0 flex-col gap-3", className)}
        onBlur={(event) => {
          onBlur?.(event);
          if (!event.currentTarget.contains(event.relatedTarget)) setLeft(true);
        }}
        {...props}
      >
        {children ?? (
          <>
            <ElicitationLegend />
            <ElicitationDescription />
            <ElicitationControl />
            <ElicitationCharacterCount />
            <ElicitationError />
          </>
        )}
      </fieldset>
    </ElicitationQuestionProvider>
  );
}

/** The question's prompt, as the fieldset's legend. */
function ElicitationLegend({ className, children, ...props }: React.ComponentProps<"legend">) {
  const { state, ids } = useElicitationQuestionContext("ElicitationLegend");
  return (
    <legend
      id={ids.legend}
      data-slot="elicitation-legend"
      // The agent's prompt keeps its own direction: "How much?" ends with its "?" in an Arabic page.
      dir="auto"
      className={cn("mb-1 max-w-full text-start text-base font-medium leading-snug", className)}
      {...props}
    >
      {children ?? state.prompt}
    </legend>
  );
}

/** The question's line of help; renders nothing when it has none. */
function ElicitationDescription({ className, children, ...props }: React.ComponentProps<"p">) {
  const { state, ids } = useElicitationQuestionContext("ElicitationDescription");
  if (state.description === undefined && children === undefined) return null;
  return (
    <p
      id={ids.description}
      data-slot="elicitation-description"
      dir="auto"
      className={cn("-mt-2 text-start text-sm text-muted-foreground", className)}
      {...props}
    >
      {children ?? state.description}
    </p>
  );
}

/**
 * The live length of capped text (`488 characters left`, `12 characters too many`), read with the
 * field as part of its description; renders nothing for a question without a `max` on its text.
 */
function ElicitationCharacterCount({ className, ...props }: React.ComponentProps<"p">) {
  const { state, ids } = useElicitationQuestionContext("ElicitationCharacterCount");
  const characters = state.characters;
  if (characters === undefined) return null;
  const over = characters.count > characters.max;
  return (
    <p
      id={ids.count}
      data-slot="elicitation-character-count"
      data-over={over ? "true" : undefined}
      className={cn(
        "-mt-1 text-xs tabular-nums",
        over ? "font-medium text-destructive" : "text-muted-foreground",
        className,
      )}
      {...props}
    >
      {characters.text}
    </p>
  );
}

/** Whether the attempt is one the form refused (a next or a send): the moment a refusal is said. */
function refusal(attempt: ElicitationAttempt | undefined): boolean {
  if (attempt?.type === "next") return attempt.status === "refused";
  return attempt?.type === "answer" && attempt.status === "rejected";
}

/**
 * How the question's error is said: it is said when it appears and each time a confirm or a send
 * is refused; an error that only changes as the person types (a half-typed email) is shown but
 * not said (its region is quiet), until the next refusal says it. `turn` counts the refusals, so
 * the same sentence refused again is said again.
 */
function useSaidError(error: string | undefined, showsAtOnce: boolean) {
  const { block } = useElicitationContext("ElicitationError");
  const attempt = useElicitationSelector(block, (snapshot) =>
    snapshot.state.status === "pending" ? snapshot.state.attempt : undefined,
  );
  const [said, setSaid] = React.useState({ attempt, error, quiet: false, turn: 0 });
  if (said.attempt !== attempt || said.error !== error) {
    const refused = said.attempt !== attempt && refusal(attempt);
    const appeared = said.error === undefined;
    const quiet = !(refused || appeared || showsAtOnce) && (said.quiet || said.error !== error);
    setSaid({ attempt, error, quiet, turn: refused ? said.turn + 1 : said.turn });
  }
  return said;
}

/**
 * The question's error, said as it appears and on each refusal (see `useSaidError`). The alert is
 * there while the question is shown, empty and out of the layout while there is no error: a
 * screen reader says what is written into a live region it already knows, where one inserted
 * with its text is not said by all of them.
 */
function ElicitationError({ className, ...props }: React.ComponentProps<"p">) {
  const { error, ids, question } = useElicitationQuestionContext("ElicitationError");
  const { quiet, turn } = useSaidError(error, showsErrorAtOnce(question));
  return (
    <p
      id={ids.error}
      role="alert"
      aria-live={quiet ? "off" : undefined}
      data-slot="elicitation-error"
      className={cn("text-sm font-medium text-destructive empty:sr-only", className)}
      {...props}
    >
      {error === undefined ? null : <span key={turn}>{error}</span>}
    </p>
  );
}

/**
 * The control the question asks with: radios or checkboxes for options (and Yes/No for a
 * boolean), a native select, or a native typed field; plus a free-text field where allowed.
 */
function ElicitationControl() {
  const { question, state, messages } = useElicitationQuestionContext("ElicitationControl");
  const type = question.input?.type;
  if (type === undefined || type === "boolean") {
    return (
      <>
        <ElicitationOptions />
        {question.allowFreeText && type === undefined ? <ElicitationFreeText /> : null}
      </>
    );
  }
  return (
    <>
      <ElicitationInput />
      {question.allowFreeText && type === "select" ? <ElicitationFreeText /> : null}
      {!state.touched && state.defaults.length > 0 && type !== "select" ? (
        <ElicitationPrePicked className="self-start">{messages.form.prePicked}</ElicitationPrePicked>
      ) : null}
    </>
  );
}

export {
  ElicitationCharacterCount,
  ElicitationControl,
  ElicitationDescription,
  ElicitationError,
  ElicitationLegend,
  ElicitationQuestion,
};
