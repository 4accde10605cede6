"use client";

import * as React from "react";
import { waitsForPatterns } from "@/hooks/elicitation-store";
import type { ElicitationBlock, ElicitationQuestionState } from "@/hooks/transcript-types";
import { useElicitationSelector } from "@/hooks/use-elicitation";
import { validateAnswers } from "@/lib/prepick/core/answers";
import { loadPatternEngine } from "@/lib/prepick/core/pattern";
import { cn } from "@/lib/utils";
import { elicitationChoices } from "./elicitation-choices";
import {
  type ElicitationContextValue,
  type ElicitationLayout,
  ElicitationProvider,
} from "./elicitation-context";
import { type ElicitationKeyAction, elicitationKeyTarget, resolveElicitationKey } from "./elicitation-keys";

type FocusRequest = { questionId: string | undefined; invalid: boolean };

const QUESTION_SELECTOR = "[data-slot=elicitation-question]";
const CONTROL_SELECTOR = "[data-elicitation-control]";

function findQuestion(form: HTMLFormElement, questionId: string | undefined): HTMLElement | undefined {
  return [...form.querySelectorAll<HTMLElement>(QUESTION_SELECTOR)].find(
    (element) => element.dataset.questionId === questionId,
  );
}

function controlsOf(question: Element, role?: string): HTMLElement[] {
  return [...question.querySelectorAll<HTMLElement>(CONTROL_SELECTOR)].filter(
    (control) =>
      !control.hasAttribute("disabled") && (role === undefined || control.getAttribute("role") === role),
  );
}

/** Focuses a question's first invalid control, else its picked option, else its first control. */
function focusQuestion(question: Element, invalid: boolean) {
  const controls = controlsOf(question);
  const target =
    (invalid ? controls.find((control) => control.getAttribute("aria-invalid") === "true") : undefined) ??
    controls.find((control) => control.dataset.state === "checked") ??
    controls[0];
  target?.focus();
}

function moveFocus(question: Element, from: EventTarget, to: "previous" | "next" | "first" | "last") {
  const controls = controlsOf(question, "checkbox");
  const at = controls.indexOf(from as HTMLElement);
  const last = controls.length - 1;
  const index = { first: 0, last, previous: at <= 0 ? last : at - 1, next: at >= last ? 0 : at + 1 }[to];
  controls[index]?.focus();
}

/** Whether a question refuses to be confirmed as it stands (touched values or its defaults). */
function stepIssue(state: ElicitationQuestionState): string | undefined {
  const answers = state.touched ? { [state.id]: [...state.value] } : {};
  return validateAnswers([state.question], answers)[0]?.message;
}

/**
 * The form of a question set: provides the shared state to its parts, owns the keyboard (hotkeys,
 * Enter, `s`, arrows, scoped to this form) and moves the focus to the new question or to the first
 * invalid control.
 */
function ElicitationRoot({
  block,
  layout = "one-at-a-time",
  autoFocus = false,
  className,
  onKeyDown,
  onSubmit,
  ...props
}: React.ComponentProps<"form"> & {
  /** The question set, from `useChatTranscript` or `createElicitation`. */
  block: ElicitationBlock;
  /** One question at a time (the default), or all at once. */
  layout?: ElicitationLayout;
  /** Moves the focus into the form when it appears, so hotkeys work at once. */
  autoFocus?: boolean;
}) {
  const formRef = React.useRef<HTMLFormElement>(null);
  const index = useElicitationSelector(block, (snapshot) => snapshot.index);
  const answer = useElicitationSelector(block, (snapshot) => snapshot.answer);
  const skip = useElicitationSelector(block, (snapshot) => snapshot.skip);
  const busy = useElicitationSelector(block, (snapshot) => snapshot.busy);
  const phase = useElicitationSelector(block, (snapshot) => snapshot.phase);
  const touched = useElicitationSelector(block, (snapshot) => snapshot.questions.some((q) => q.touched));
  const [attempts, setAttempts] = React.useState(answer.status === "rejected" ? 1 : 0);
  const [stepError, setStepError] = React.useState<ElicitationContextValue["stepError"]>();
  const [focusRequest, setFocusRequest] = React.useState<FocusRequest | null>(
    autoFocus ? { questionId: block.questions[index]?.id, invalid: false } : null,
  );
  const baseId = React.useId();
  const count = block.questions.length;

  React.useEffect(() => {
    const form = formRef.current;
    if (!focusRequest || !form) return;
    const question = findQuestion(form, focusRequest.questionId);
    if (question) focusQuestion(question, focusRequest.invalid);
    else form.querySelector<HTMLElement>("[data-slot=elicitation-status]")?.focus();
  }, [focusRequest]);

  const failed = answer.status === "failed" || skip.status === "failed" || skip.status === "rejected";
  const wasFailed = React.useRef(failed);
  React.useEffect(() => {
    // The controls were disabled while sending, so the focus fell out of the form: bring it to Retry.
    if (failed && !wasFailed.current) {
      formRef.current?.querySelector<HTMLElement>("[data-slot=elicitation-retry]")?.focus();
    }
    wasFailed.current = failed;
  }, [failed]);

  const context = React.useMemo<ElicitationContextValue>(() => {
    const questionAt = (at: number) => block.getSnapshot().questions[at];
    const submit = async () => {
      setAttempts((count) => count + 1);
      await block.submit();
      const snapshot = block.getSnapshot();
      if (snapshot.answer.status !== "rejected") return;
      const first = snapshot.questions.find((question) => question.issues.length > 0);
      if (first && layout === "one-at-a-time") block.setIndex(first.index);
      setFocusRequest({ questionId: first?.id, invalid: true });
    };
    const next = () => {
      const current = questionAt(index);
      if (!current) return;
      if (waitsForPatterns([current.question])) {
        // Its pattern is checked once the engine is here; then confirm, unless the person moved on.
        loadPatternEngine().then(
          () => block.getSnapshot().index === index && next(),
          (error: Error) => {
            const message = `This answer cannot be checked yet: ${error.message}`;
            setStepError({ questionId: current.id, message, value: current.value });
          },
        );
        return;
      }
      const message = stepIssue(current);
      if (message !== undefined) {
        setAttempts((count) => count + 1);
        setStepError({ questionId: current.id, message, value: current.value });
        setFocusRequest({ questionId: current.id, invalid: true });
        return;
      }
      if (index >= count - 1) return void submit();
      setStepError(undefined);
      block.setIndex(index + 1);
      setFocusRequest({ questionId: questionAt(index + 1)?.id, invalid: false });
    };
    return {
      block,
      layout,
      index,
      answer,
      skip,
      busy,
      attempts,
      stepError,
      baseId,
      next,
      previous() {
        if (index === 0) return;
        block.setIndex(index - 1);
        setFocusRequest({ questionId: questionAt(index - 1)?.id, invalid: false });
      },
      submit,
      skipAll: () => block.skip(),
      retry: () => block.retry(),
    };
  }, [block, layout, index, answer, skip, busy, attempts, stepError, baseId, count]);

  function perform(
    action: ElicitationKeyAction,
    event: React.KeyboardEvent,
    question: Element | null,
    state: ElicitationQuestionState | undefined,
  ) {
    switch (action.type) {
      case "pick": {
        const option = state && elicitationChoices(state.question).find((o) => o.hotkey === action.hotkey);
        if (!state || !option || !question) return;
        if (state.multiple) state.toggle(option.value);
        else state.setValue(option.value);
        const control = controlsOf(question).find((element) => element.dataset.value === option.value);
        control?.focus();
        return;
      }
      case "next":
        return context.next();
      case "submit":
        return void context.submit();
      case "skip":
        return void context.skipAll();
      case "move":
        if (question) moveFocus(question, event.target, action.to);
        return;
    }
  }

  function handleKeyDown(event: React.KeyboardEvent<HTMLFormElement>) {
    // Radix radios and checkboxes cancel Enter themselves, so only a cancel by the user's own
    // handler stops ours.
    const cancelledBefore = event.defaultPrevented;
    onKeyDown?.(event);
    if (event.defaultPrevented && !cancelledBefore) return;
    const target = elicitationKeyTarget(event.target);
    const form = event.currentTarget;
    const element = event.target instanceof Element ? event.target : null;
    const question =
      element?.closest(QUESTION_SELECTOR) ?? findQuestion(form, block.questions[index]?.id) ?? null;
    const questionId = question instanceof HTMLElement ? question.dataset.questionId : undefined;
    const state = block.getSnapshot().questions.find((candidate) => candidate.id === questionId);
    const composing = event.nativeEvent.isComposing || event.keyCode === 229;
    const action = resolveElicitationKey(event.nativeEvent, {
      target,
      hotkeys: state ? elicitationChoices(state.question).flatMap((option) => option.hotkey ?? []) : [],
      layout,
      isLastQuestion: state === undefined || state.index >= count - 1,
      enabled: phase === "pending" && !busy,
    });
    // Enter in a one-line field belongs to the form's keyboard, never to implicit submission.
    if (event.key === "Enter" && target === "field" && !composing) event.preventDefault();
    if (action.type === "none") return;
    event.preventDefault();
    perform(action, event, question, state);
  }

  function handleSubmit(event: React.SubmitEvent<HTMLFormElement>) {
    onSubmit?.(event);
    event.preventDefault();
    if (layout === "one-at-a-time" && index < count - 1) context.next();
    else void context.submit();
  }

  const status = busy
    ? "submitting"
    : failed
      ? "failed"
      : answer.status === "rejected"
        ? "invalid"
        : touched
          ? "editing"
          : "pending";

  return (
    <ElicitationProvider value={context}>
      <form
        ref={formRef}
        noValidate
        aria-busy={busy || undefined}
        data-slot="elicitation-root"
        data-status={status}
        data-layout={layout}
        className={cn("flex flex-col gap-4", className)}
        onKeyDown={handleKeyDown}
        onSubmit={handleSubmit}
        {...props}
      />
    </ElicitationProvider>
  );
}

export { ElicitationRoot };
