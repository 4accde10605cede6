"use client";

import * as React from "react";
import type {
  ElicitationAttempt,
  ElicitationBlock,
  ElicitationQuestionState,
} from "@/hooks/transcript-types";
import { useElicitationSelector } from "@/hooks/use-elicitation";
import { cn } from "@/lib/utils";
import { elicitationChoices } from "./elicitation-choices";
import {
  type ElicitationContextValue,
  type ElicitationLayout,
  type ElicitationLead,
  ElicitationProvider,
} from "./elicitation-context";
import { type ElicitationKeyAction, elicitationKeyTarget, resolveElicitationKey } from "./elicitation-keys";

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

/** Whether the question is a group (options, a boolean) rather than one typed field. */
function isGroup(question: Element): boolean {
  return question.getAttribute("role") !== "none";
}

/**
 * Focuses a question as it is shown: a group itself, so a screen reader says its prompt (and the
 * lines that describe it) before any option; a typed field, named by the prompt, directly. A
 * refused question focuses its first invalid control instead, whose error is read with it.
 */
function focusQuestion(question: HTMLElement, invalid: boolean) {
  const controls = controlsOf(question);
  const target =
    (invalid ? controls.find((control) => control.getAttribute("aria-invalid") === "true") : undefined) ??
    (isGroup(question) ? question : controls[0]);
  target?.focus({ preventScroll: true });
}

/**
 * Moves the focus between a question's options: between checkboxes (a radio group moves on its
 * own), and from the question's group itself, as if from its picked option, so the arrows do
 * what they would have done had the focus been on the pick. A radio reached from the group is
 * picked, as the radio group picks the one its arrows reach.
 */
function moveFocus(
  question: HTMLElement,
  from: EventTarget,
  to: "previous" | "next" | "first" | "last",
  state: ElicitationQuestionState | undefined,
) {
  const fromGroup = from === question;
  const controls = controlsOf(question).filter((control) => {
    const role = control.getAttribute("role");
    return role === "checkbox" || (fromGroup && role === "radio");
  });
  const at = fromGroup
    ? controls.findIndex((control) => control.dataset.state === "checked")
    : controls.indexOf(from as HTMLElement);
  const last = controls.length - 1;
  const index = {
    first: 0,
    last,
    previous: at <= 0 ? last : at - 1,
    next: at < 0 || at >= last ? 0 : at + 1,
  }[to];
  const control = controls[index];
  if (!control) return;
  const value = control.dataset.value;
  if (fromGroup && control.getAttribute("role") === "radio" && state && value !== undefined) {
    state.setValue(value);
  }
  control.focus({ preventScroll: true });
}

/**
 * The writing direction the page gives the form, read from its computed style (a `dir` on the form
 * or any ancestor, or CSS `direction`): on mount, and again whenever the focus enters the form.
 */
function useDirection(ref: React.RefObject<HTMLFormElement | null>): "ltr" | "rtl" {
  const [dir, setDir] = React.useState<"ltr" | "rtl">("ltr");
  React.useLayoutEffect(() => {
    const form = ref.current;
    if (!form) return;
    const read = () => setDir(getComputedStyle(form).direction === "rtl" ? "rtl" : "ltr");
    read();
    form.addEventListener("focusin", read);
    return () => form.removeEventListener("focusin", read);
  }, [ref]);
  return dir;
}

/** Where the focus goes after the set's state moved, if anywhere. */
type FocusTarget = { question: "current"; invalid: boolean } | { slot: string };

/** What the focus follows: the pending set's attempt and its current question. */
type FocusState = { attempt: ElicitationAttempt | undefined; index: number };

function focusTarget(
  before: FocusState,
  after: FocusState,
  asked: ReadonlySet<string>,
): FocusTarget | undefined {
  const attempt = after.attempt;
  if (!attempt || !before.attempt) return undefined;
  if (attempt !== before.attempt) {
    if (attempt.type === "next" && attempt.status === "refused")
      return { question: "current", invalid: true };
    if (attempt.type === "answer" && attempt.status === "rejected") {
      // A refusal no question can show is said in the status line.
      return attempt.issues.some((issue) => asked.has(issue.questionId))
        ? { question: "current", invalid: true }
        : { slot: "elicitation-status" };
    }
    // The controls were disabled while sending, so the focus fell out of the form: bring it to Retry.
    if (
      attempt.type !== "none" &&
      (attempt.status === "failed" || (attempt.type === "skip" && attempt.status === "rejected"))
    ) {
      return { slot: "elicitation-retry" };
    }
    if (attempt.type === "skip" && attempt.status === "confirming") return { slot: "elicitation-skip-keep" };
    const was = before.attempt;
    if (was.type === "skip" && was.status === "confirming" && attempt.type === "none") {
      return { question: "current", invalid: false };
    }
  }
  if (after.index !== before.index) return { question: "current", invalid: false };
  return undefined;
}

/**
 * The form of a question set: provides the shared state to its parts, owns the keyboard (hotkeys,
 * Enter, `s`, arrows, scoped to this form) and moves the focus as the set's state moves: to the new
 * question, to the first invalid control, to Retry, to the skip confirmation.
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
  // The attempt keeps its identity while the person types, so a keystroke does not render the form.
  const attempt = useElicitationSelector(block, (snapshot) =>
    snapshot.state.status === "pending" ? snapshot.state.attempt : undefined,
  );
  const index = useElicitationSelector(block, (snapshot) => snapshot.index);
  const answer = useElicitationSelector(block, (snapshot) => snapshot.answer);
  const skip = useElicitationSelector(block, (snapshot) => snapshot.skip);
  const busy = useElicitationSelector(block, (snapshot) => snapshot.busy);
  const checking = attempt?.type === "next" && attempt.status === "checking";
  const phase = useElicitationSelector(block, (snapshot) => snapshot.phase);
  const failed = useElicitationSelector(block, (snapshot) => snapshot.canRetry);
  const touched = useElicitationSelector(block, (snapshot) => snapshot.questions.some((q) => q.touched));
  const baseId = React.useId();
  const dir = useDirection(formRef);
  const count = block.questions.length;

  const focus = React.useCallback(
    (target: FocusTarget) => {
      const form = formRef.current;
      if (!form) return;
      if ("slot" in target) {
        form.querySelector<HTMLElement>(`[data-slot=${target.slot}]`)?.focus({ preventScroll: true });
        return;
      }
      const question = findQuestion(form, block.questions[block.getSnapshot().index]?.id);
      if (question) focusQuestion(question, target.invalid);
      else form.querySelector<HTMLElement>("[data-slot=elicitation-status]")?.focus({ preventScroll: true });
    },
    [block],
  );

  const mounted = React.useRef(false);
  React.useEffect(() => {
    if (mounted.current) return;
    mounted.current = true;
    if (autoFocus) focus({ question: "current", invalid: false });
  }, [autoFocus, focus]);

  const asked = React.useMemo(() => new Set(block.questions.map((question) => question.id)), [block]);
  const previous = React.useRef<FocusState>({ attempt, index });
  React.useEffect(() => {
    const target = focusTarget(previous.current, { attempt, index }, asked);
    previous.current = { attempt, index };
    if (target) focus(target);
  }, [attempt, index, asked, focus]);

  // How many of each describing line are shown (a part counts itself in while it is mounted).
  const [shown, setShown] = React.useState({ preamble: 0, progress: 0 });
  const showLead = React.useCallback((part: keyof ElicitationLead) => {
    setShown((counts) => ({ ...counts, [part]: counts[part] + 1 }));
    return () => setShown((counts) => ({ ...counts, [part]: counts[part] - 1 }));
  }, []);
  const lead = React.useMemo<ElicitationLead>(
    () => ({
      preamble: shown.preamble > 0 ? `${baseId}-preamble` : undefined,
      progress: shown.progress > 0 ? `${baseId}-progress` : undefined,
    }),
    [shown, baseId],
  );

  const context = React.useMemo<ElicitationContextValue>(
    () => ({
      block,
      layout,
      index,
      answer,
      skip,
      busy,
      checking,
      baseId,
      dir,
      next: () => void block.next(),
      previous() {
        if (index > 0) block.setIndex(index - 1);
      },
      submit: () => block.submit(),
      skipAll: () => block.skip(),
      cancelSkip: () => block.cancelSkip(),
      retry: () => block.retry(),
      lead,
      showLead,
    }),
    [block, layout, index, answer, skip, busy, checking, baseId, dir, lead, showLead],
  );

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
        control?.focus({ preventScroll: true });
        return;
      }
      case "next":
        return context.next();
      case "submit":
        return void context.submit();
      case "skip":
        return void context.skipAll();
      case "move":
        if (question instanceof HTMLElement) moveFocus(question, event.target, action.to, state);
        return;
    }
  }

  function handleKeyDown(event: React.KeyboardEvent<HTMLFormElement>) {
    // Radix radios and checkboxes cancel Enter themselves, so only a cancel by the user's own
    // handler stops ours.
    const cancelledBefore = event.defaultPrevented;
    onKeyDown?.(event);
    if (event.defaultPrevented && !cancelledBefore) return;
    const form = event.currentTarget;
    // The question's own group, focused as it is shown, is a target of its own: arrows start at its pick.
    const target =
      event.target instanceof Element && event.target.matches(QUESTION_SELECTOR)
        ? "question"
        : elicitationKeyTarget(event.target);
    const element = event.target instanceof Element ? event.target : null;
    const question =
      element?.closest(QUESTION_SELECTOR) ?? findQuestion(form, block.questions[index]?.id) ?? null;
    const questionId = question instanceof HTMLElement ? question.dataset.questionId : undefined;
    const state = block.getSnapshot().questions.find((candidate) => candidate.id === questionId);
    const composing = event.nativeEvent.isComposing || event.keyCode === 229;
    if (event.key === "Escape" && skip.status === "confirming") {
      event.preventDefault();
      context.cancelSkip();
      return;
    }
    const action = resolveElicitationKey(event.nativeEvent, {
      target,
      hotkeys: state ? elicitationChoices(state.question).flatMap((option) => option.hotkey ?? []) : [],
      layout,
      isLastQuestion: state === undefined || state.index >= count - 1,
      enabled: phase === "pending" && !busy,
      direction: dir,
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
    : checking
      ? "checking"
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
        aria-busy={busy || checking || undefined}
        data-slot="elicitation-root"
        data-status={status}
        data-layout={layout}
        // A phone's screen is short: the set keeps its first prompt and its buttons in view together.
        className={cn("flex flex-col gap-4 max-sm:gap-3", className)}
        onKeyDown={handleKeyDown}
        onSubmit={handleSubmit}
        {...props}
      />
    </ElicitationProvider>
  );
}

export { ElicitationRoot };
