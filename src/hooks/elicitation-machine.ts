import { type AnswerIssue, validateAnswers } from "@/lib/prepick/core/answers";
import { coerceAnswer } from "@/lib/prepick/core/coerce-answer";
import type { Answers, ElicitationOutcome, Question } from "@/lib/prepick/core/question";
import type {
  AnswerState,
  ElicitationAttempt,
  ElicitationDraft,
  ElicitationEvent,
  ElicitationState,
  PatternReadiness,
  PendingElicitation,
  SkipState,
} from "./transcript-types";

/** The line a refusal by the page's own check carries (the server's carries its own). */
export const REFUSED_IN_PAGE = "Some answers need fixing before they can be sent.";

const NONE: ElicitationAttempt = { type: "none" };

/** Whether an answer or a skip is being checked or sent: the form waits, edits are ignored. */
export function isBusy(attempt: ElicitationAttempt): boolean {
  return (
    (attempt.type === "answer" || attempt.type === "skip") &&
    (attempt.status === "checking" || attempt.status === "submitting")
  );
}

/** Whether checking `questions` needs the pattern engine, and it is not here. */
function needsPatterns(questions: readonly Question[], patterns: PatternReadiness): boolean {
  return patterns !== "ready" && questions.some((question) => question.input?.pattern !== undefined);
}

/** What the form is waiting for, with the engine asked for again after a failed load. */
function waitFor(state: PendingElicitation, attempt: ElicitationAttempt): PendingElicitation {
  return { ...state, attempt, patterns: "loading" };
}

function sameValues(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((value) => b.includes(value));
}

/** Whether the person changed a question away from its pre-picked answer. */
export function hasChanges(questions: readonly Question[], draft: ElicitationDraft): boolean {
  return questions.some((question) => {
    const values = draft.values[question.id];
    return values !== undefined && !sameValues(values, question.defaults ?? []);
  });
}

function withAttempted(attempted: readonly string[], ids: readonly string[]): readonly string[] {
  const added = ids.filter((id) => !attempted.includes(id));
  return added.length > 0 ? [...attempted, ...added] : attempted;
}

/** The draft at the first question an issue names, if any does. */
function atFirstIssue(
  questions: readonly Question[],
  draft: ElicitationDraft,
  issues: readonly AnswerIssue[],
) {
  const index = questions.findIndex((question) => issues.some((issue) => issue.questionId === question.id));
  return index < 0 || index === draft.index ? draft : { ...draft, index };
}

function submit(state: PendingElicitation, questions: readonly Question[]): ElicitationState {
  if (needsPatterns(questions, state.patterns)) return waitFor(state, { type: "answer", status: "checking" });
  const answers = state.draft.values;
  const issues = validateAnswers(questions, answers);
  if (issues.length === 0) return { ...state, attempt: { type: "answer", status: "submitting", answers } };
  return {
    ...state,
    draft: atFirstIssue(questions, state.draft, issues),
    attempt: { type: "answer", status: "rejected", error: REFUSED_IN_PAGE, issues },
    attempted: withAttempted(
      state.attempted,
      questions.map((question) => question.id),
    ),
  };
}

function next(state: PendingElicitation, questions: readonly Question[]): ElicitationState {
  const { index, values } = state.draft;
  const question = questions[index];
  if (!question) return state;
  if (needsPatterns([question], state.patterns)) {
    return waitFor(state, { type: "next", status: "checking", questionId: question.id });
  }
  const own = Object.hasOwn(values, question.id) ? { [question.id]: values[question.id] ?? [] } : {};
  if (validateAnswers([question], own).length > 0) {
    return {
      ...state,
      attempt: { type: "next", status: "refused", questionId: question.id },
      attempted: withAttempted(state.attempted, [question.id]),
    };
  }
  if (index >= questions.length - 1) return submit(state, questions);
  return { ...state, draft: { ...state.draft, index: index + 1 }, attempt: NONE };
}

function skip(state: PendingElicitation, questions: readonly Question[]): ElicitationState {
  if (needsPatterns(questions, state.patterns)) return waitFor(state, { type: "skip", status: "checking" });
  return { ...state, attempt: { type: "skip", status: "submitting" } };
}

/** The canonical values of raw input for a question: coerced, empty ones dropped, no repeats. */
function canonical(question: Question, raw: unknown): string[] {
  const values = (Array.isArray(raw) ? raw : [raw])
    .map((item) => coerceAnswer(question, item))
    .filter((value) => value !== "");
  return question.multiple ? [...new Set(values)] : values;
}

/** The person edited one question: its own refusal goes, and so does a finished attempt. */
function edit(
  state: PendingElicitation,
  questionId: string,
  values: readonly string[] | undefined,
): ElicitationState {
  const { [questionId]: _previous, ...others } = state.draft.values;
  const draftValues = values === undefined ? others : { ...state.draft.values, [questionId]: [...values] };
  const waitingStep = state.attempt.type === "next" && state.attempt.status === "checking";
  return {
    ...state,
    draft: { ...state.draft, values: draftValues },
    refused: state.refused.filter((issue) => issue.questionId !== questionId),
    attempt: waitingStep ? state.attempt : NONE,
  };
}

function settled(outcome: ElicitationOutcome, conflict: boolean): ElicitationState {
  return { status: "settled", outcome, conflict };
}

/**
 * The one transition function of a question set: where `event` takes `state`, given its
 * questions. Pure; an event that does not apply returns the very same state object, so a
 * caller can compare by identity. Settled and dismissed are final.
 */
export function elicitationTransition(
  state: ElicitationState,
  event: ElicitationEvent,
  questions: readonly Question[],
): ElicitationState {
  if (state.status !== "pending") return state;
  const { attempt } = state;
  const busy = isBusy(attempt);
  const sending = (attempt.type === "answer" || attempt.type === "skip") && attempt.status === "submitting";
  switch (event.type) {
    case "set":
    case "toggle":
    case "reset": {
      const question = questions.find((candidate) => candidate.id === event.questionId);
      if (!question || busy) return state;
      const current = state.draft.values[question.id];
      if (event.type === "reset") return current === undefined ? state : edit(state, question.id, undefined);
      if (event.type === "set") return edit(state, question.id, canonical(question, event.raw));
      const shown = current ?? question.defaults ?? [];
      if (!question.multiple) return edit(state, question.id, canonical(question, event.value));
      const toggled = shown.includes(event.value)
        ? shown.filter((value) => value !== event.value)
        : [...shown, event.value];
      return edit(state, question.id, canonical(question, toggled));
    }
    case "move": {
      const index = Math.max(0, Math.min(event.index, questions.length - 1));
      if (index === state.draft.index) return state;
      return {
        ...state,
        draft: { ...state.draft, index },
        attempt: attempt.type === "next" ? NONE : attempt,
      };
    }
    case "next":
      return busy ? state : next(state, questions);
    case "submit":
      return busy ? state : submit(state, questions);
    case "skip":
      if (busy) return state;
      if (attempt.type === "skip" && attempt.status === "confirming") return skip(state, questions);
      return hasChanges(questions, state.draft)
        ? { ...state, attempt: { type: "skip", status: "confirming" } }
        : skip(state, questions);
    case "cancel-skip":
      return attempt.type === "skip" && attempt.status === "confirming" ? { ...state, attempt: NONE } : state;
    case "retry":
      switch (attempt.type) {
        case "skip":
          return attempt.status === "failed" || attempt.status === "rejected"
            ? skip(state, questions)
            : state;
        case "next":
          return attempt.status === "failed" ? next(state, questions) : state;
        case "answer":
          if (attempt.status !== "failed") return state;
          return attempt.answers
            ? { ...state, attempt: { type: "answer", status: "submitting", answers: attempt.answers } }
            : submit(state, questions);
        default:
          return state;
      }
    case "patterns-ready": {
      if (state.patterns === "ready") return state;
      const ready: PendingElicitation = { ...state, patterns: "ready" };
      if (attempt.type === "none" || attempt.status !== "checking") return ready;
      if (attempt.type === "next") return next(ready, questions);
      return attempt.type === "answer" ? submit(ready, questions) : skip(ready, questions);
    }
    case "patterns-failed": {
      if (state.patterns !== "loading") return state;
      const failed: PendingElicitation = { ...state, patterns: "failed" };
      if (attempt.type === "none" || attempt.status !== "checking") return failed;
      const error = event.error;
      if (attempt.type === "next") return { ...failed, attempt: { ...attempt, status: "failed", error } };
      return { ...failed, attempt: { type: attempt.type, status: "failed", error } };
    }
    case "succeed":
      return sending ? settled(event.outcome, false) : state;
    case "conflict":
      if (!sending) return state;
      return event.outcome ? settled(event.outcome, true) : { status: "dismissed" };
    case "reject": {
      if (!sending) return state;
      if (attempt.type === "skip")
        return { ...state, attempt: { type: "skip", status: "rejected", error: event.error } };
      const known = event.issues.filter((issue) =>
        questions.some((question) => question.id === issue.questionId),
      );
      return {
        ...state,
        draft: atFirstIssue(questions, state.draft, known),
        attempt: { type: "answer", status: "rejected", error: event.error, issues: event.issues },
        refused: known,
        attempted: withAttempted(
          state.attempted,
          known.map((issue) => issue.questionId),
        ),
      };
    }
    case "fail":
      if (attempt.type === "answer" && attempt.status === "submitting") {
        return {
          ...state,
          attempt: { type: "answer", status: "failed", error: event.error, answers: attempt.answers },
        };
      }
      return sending ? { ...state, attempt: { type: "skip", status: "failed", error: event.error } } : state;
    case "settle":
      return settled(event.outcome, false);
    case "dismiss":
      return { status: "dismissed" };
  }
}

/** Where a question set starts: a draft, an answer or skip already under way, settled or dismissed. */
export interface ElicitationStart {
  /** Values the person already set (they count as touched). */
  values?: Answers;
  /** The one-at-a-time cursor. */
  index?: number;
  /** An answer already under way, in the answer view's terms. */
  answer?: AnswerState;
  /** A skip already under way (or asking to discard changes), in the skip view's terms. */
  skip?: SkipState;
  /** Settled with this outcome. */
  outcome?: ElicitationOutcome;
  /** Dismissed: its run was cancelled before an answer. */
  dismissed?: boolean;
}

function startingAttempt(start: ElicitationStart): ElicitationAttempt {
  const { answer, skip } = start;
  if (answer && answer.status !== "idle" && answer.status !== "settled") return { type: "answer", ...answer };
  if (skip && skip.status !== "idle" && skip.status !== "settled") return { type: "skip", ...skip };
  return NONE;
}

/**
 * The state a question set starts in. `patternsReady` says whether the pattern engine is here
 * (it matters only when a question has a pattern).
 */
export function initialElicitationState(
  questions: readonly Question[],
  start: ElicitationStart,
  patternsReady: boolean,
): ElicitationState {
  const outcome =
    start.outcome ??
    (start.answer?.status === "settled" ? start.answer.outcome : undefined) ??
    (start.skip?.status === "settled" ? start.skip.outcome : undefined);
  if (start.dismissed) return { status: "dismissed" };
  if (outcome) return settled(outcome, false);
  const known = (id: string) => questions.some((question) => question.id === id);
  const values = Object.fromEntries(Object.entries(start.values ?? {}).filter(([id]) => known(id)));
  const attempt = startingAttempt(start);
  const refused =
    attempt.type === "answer" && attempt.status === "rejected"
      ? attempt.issues.filter((issue) => known(issue.questionId))
      : [];
  return {
    status: "pending",
    draft: { values, index: Math.max(0, Math.min(start.index ?? 0, questions.length - 1)) },
    attempt,
    patterns:
      patternsReady || !questions.some((question) => question.input?.pattern !== undefined)
        ? "ready"
        : "loading",
    refused,
    attempted: refused.map((issue) => issue.questionId),
  };
}

const IDLE_ANSWER: AnswerState = { status: "idle" };
const IDLE_SKIP: SkipState = { status: "idle" };

/** The answer as the snapshot's `answer` shows it: a view of the state, for forms that read only that. */
export function answerView(state: ElicitationState): AnswerState {
  if (state.status === "settled")
    return { status: "settled", outcome: state.outcome, conflict: state.conflict };
  if (state.status !== "pending" || state.attempt.type !== "answer") return IDLE_ANSWER;
  const { attempt } = state;
  switch (attempt.status) {
    case "checking":
      return { status: "submitting", answers: state.draft.values };
    case "submitting":
      return { status: "submitting", answers: attempt.answers };
    case "rejected":
      return { status: "rejected", error: attempt.error, issues: attempt.issues };
    case "failed":
      return { status: "failed", error: attempt.error, answers: attempt.answers ?? state.draft.values };
  }
}

/** The skip as the snapshot's `skip` shows it: a view of the state. */
export function skipView(state: ElicitationState): SkipState {
  if (state.status === "settled")
    return { status: "settled", outcome: state.outcome, conflict: state.conflict };
  if (state.status !== "pending" || state.attempt.type !== "skip") return IDLE_SKIP;
  const { attempt } = state;
  switch (attempt.status) {
    case "confirming":
      return { status: "confirming" };
    case "checking":
    case "submitting":
      return { status: "submitting" };
    case "rejected":
    case "failed":
      return { status: attempt.status, error: attempt.error };
  }
}
