import { type AnswerIssue, validateAnswers } from "@/lib/prepick/core/answers";
import { loadPatternEngine, patternEngineReady } from "@/lib/prepick/core/pattern";
import type { Answers, ElicitationOutcome, Question } from "@/lib/prepick/core/question";
import { isRequired } from "@/lib/prepick/core/value-problem";
import { messageOf, toToolCallFailure } from "@/lib/prepick/transport/tool-call-error";
import { describeOutcome, readOutcome } from "./describe-outcome";
import type { DraftSlot } from "./draft-storage";
import {
  answerView,
  type ElicitationStart,
  elicitationTransition,
  initialElicitationState,
  isBusy,
  skipView,
} from "./elicitation-machine";
import { characterCount, issueSentence } from "./issue-sentence";
import { englishMessages, type PrepickMessages } from "./prepick-messages";
import type {
  ElicitationEvent,
  ElicitationQuestionState,
  ElicitationSnapshot,
  ElicitationState,
  ElicitationStore,
  PendingElicitation,
} from "./transcript-types";

/**
 * How a store sends answers and skips, and where it starts. When a question has a pattern,
 * both are called only once the pattern engine is here, so either may settle in the page.
 */
export interface ElicitationStoreOptions extends ElicitationStart {
  /** Sends the touched answers; resolves with the outcome or throws (a `ToolCallError` for a typed refusal). */
  onAnswer: (answers: Answers) => Promise<ElicitationOutcome>;
  /** Sends a skip; resolves with the outcome or throws. */
  onSkip: (() => Promise<ElicitationOutcome>) | undefined;
  /** The sentences errors and settled answers are written in (English when left out). */
  messages?: PrepickMessages;
  /**
   * Where the draft is kept while pending, restored from when the store starts without `values`
   * or `index`, and forgotten once the set settles or is dismissed.
   */
  draft?: DraftSlot;
}

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

function sameIssues(a: readonly AnswerIssue[], b: readonly AnswerIssue[]): boolean {
  return a.length === b.length && a.every((issue, index) => issue.message === b[index]?.message);
}

/** Whether nothing is being checked or sent: the point where `submit()`, `skip()`… resolve. */
function isQuiet(state: ElicitationState): boolean {
  if (state.status !== "pending" || state.attempt.type === "none") return true;
  return state.attempt.status !== "checking" && state.attempt.status !== "submitting";
}

function pick(values: Answers, among: readonly Question[]): Answers {
  const picked: Answers = {};
  for (const question of among) {
    const given = values[question.id];
    if (given) picked[question.id] = given;
  }
  return picked;
}

/**
 * The vanilla store behind an elicitation block: the set's one state (moved only by
 * `elicitationTransition`), the snapshot read from it, and the effects the state asks for:
 * sending an answer or a skip, loading the pattern engine, keeping the draft. Question snapshots
 * keep their identity until that question changes, so a per-question subscription re-renders one
 * question per keystroke.
 */
export function createElicitationStore(
  questions: readonly Question[],
  options: ElicitationStoreOptions,
): ElicitationStore {
  const messages = options.messages ?? englishMessages;
  const slot = options.draft;
  const restored = options.values === undefined && options.index === undefined ? slot?.load() : undefined;
  let state = initialElicitationState(questions, { ...options, ...restored }, patternEngineReady());
  if (state.status !== "pending") slot?.clear();
  const withPatterns = questions.filter((question) => question.input?.pattern !== undefined);
  const withoutPatterns = questions.filter((question) => question.input?.pattern === undefined);

  const listeners = new Set<() => void>();
  const questionListeners = new Map<string, Set<() => void>>();
  const questionStates = new Map<string, ElicitationQuestionState>();
  let waiters: (() => void)[] = [];
  // The answer and skip views keep their identity while what they show stays the same.
  let views:
    | { source: unknown; answer: ElicitationSnapshot["answer"]; skip: ElicitationSnapshot["skip"] }
    | undefined;
  let loadingPatterns = false;
  let snapshot: ElicitationSnapshot;

  const actions = new Map(
    questions.map((question) => [
      question.id,
      {
        setValue: (raw: unknown) => dispatch({ type: "set", questionId: question.id, raw }),
        toggle: (value: string) => dispatch({ type: "toggle", questionId: question.id, value }),
        reset: () => dispatch({ type: "reset", questionId: question.id }),
      },
    ]),
  );

  function questionState(question: Question, position: number, local: readonly AnswerIssue[]) {
    const pending = state.status === "pending" ? state : undefined;
    const own = (issue: AnswerIssue) => issue.questionId === question.id;
    const touched = pending !== undefined && Object.hasOwn(pending.draft.values, question.id);
    const attempted = pending?.attempted.includes(question.id) ?? false;
    const refused = pending?.refused.filter(own) ?? [];
    const issues = refused.length > 0 ? refused : touched || attempted ? local.filter(own) : [];
    const value =
      state.status === "settled"
        ? (state.outcome.answers[question.id] ?? [])
        : (pending?.draft.values[question.id] ?? question.defaults ?? []);
    const previous = questionStates.get(question.id);
    if (
      previous &&
      previous.touched === touched &&
      previous.attempted === attempted &&
      sameList(previous.value, value) &&
      sameIssues(previous.issues, issues)
    ) {
      return previous;
    }
    const first = issues[0];
    const built: ElicitationQuestionState = {
      id: question.id,
      index: position,
      prompt: question.prompt,
      description: question.description,
      options: question.options ?? [],
      input: question.input,
      multiple: question.multiple ?? false,
      allowFreeText: question.allowFreeText ?? false,
      required: isRequired(question),
      defaults: question.defaults ?? [],
      value,
      touched,
      attempted,
      error: first ? issueSentence(first, question, value, messages) : undefined,
      issues,
      characters: characterCount(question, value[0] ?? "", messages),
      question,
      ...(actions.get(question.id) as Pick<ElicitationQuestionState, "setValue" | "toggle" | "reset">),
    };
    questionStates.set(question.id, built);
    return built;
  }

  /** The sentence the person reads for what went wrong with the whole set. */
  function formError(pending: PendingElicitation): string | undefined {
    const { attempt } = pending;
    if (attempt.type === "none") return undefined;
    if (attempt.type === "next") {
      return attempt.status === "failed" ? messages.status.cannotCheck(attempt.error) : undefined;
    }
    if (attempt.type === "skip") {
      return attempt.status === "failed" || attempt.status === "rejected"
        ? messages.status.skipNotSent(attempt.error)
        : undefined;
    }
    if (attempt.status === "failed") {
      return attempt.answers
        ? messages.status.answerNotSent(attempt.error)
        : messages.status.cannotCheck(attempt.error);
    }
    if (attempt.status !== "rejected") return undefined;
    // Issues on the set's questions show on them; the rest have no place but here.
    const stray = attempt.issues.filter(
      (issue) => !questions.some((question) => question.id === issue.questionId),
    );
    if (attempt.issues.length > 0 && stray.length === 0) return undefined;
    const sentences = stray.map((issue) => issueSentence(issue, undefined, [], messages));
    // A refusal naming no question has only its own words to say why (an expired set, say).
    const detail = attempt.issues.length === 0 ? attempt.error : "";
    return [messages.status.refused(detail), ...new Set(sentences)].join(" ");
  }

  function build(): string[] {
    const pending = state.status === "pending" ? state : undefined;
    // Until the pattern engine is here, a question with a pattern is not yet valid, without an error.
    const waiting = pending !== undefined && pending.patterns !== "ready" && withPatterns.length > 0;
    const checked = waiting ? withoutPatterns : questions;
    const local = pending ? validateAnswers(checked, pick(pending.draft.values, checked)) : [];
    const changed: string[] = [];
    const states = questions.map((question, position) => {
      const before = questionStates.get(question.id);
      const after = questionState(question, position, local);
      if (before !== after) changed.push(question.id);
      return after;
    });
    const source = pending ? pending.attempt : state;
    const shown =
      views?.source === source ? views : { source, answer: answerView(state), skip: skipView(state) };
    views = shown;
    const attempt = pending?.attempt;
    snapshot = {
      state,
      phase: state.status,
      questions: states,
      isValid: pending !== undefined && !waiting && local.length === 0,
      index: pending?.draft.index ?? 0,
      answer: shown.answer,
      skip: shown.skip,
      busy: attempt !== undefined && isBusy(attempt),
      error: pending ? formError(pending) : undefined,
      canRetry:
        attempt !== undefined &&
        attempt.type !== "none" &&
        (attempt.status === "failed" || (attempt.type === "skip" && attempt.status === "rejected")),
      ...(state.status === "settled" ? { settled: describeOutcome(questions, state.outcome, messages) } : {}),
    };
    return changed;
  }

  function emit(changed: readonly string[]) {
    for (const id of changed) for (const listener of questionListeners.get(id) ?? []) listener();
    for (const listener of listeners) listener();
    if (isQuiet(state)) {
      const resolved = waiters;
      waiters = [];
      for (const resolve of resolved) resolve();
    }
  }

  function quiet(): Promise<void> {
    return isQuiet(state) ? Promise.resolve() : new Promise((resolve) => waiters.push(resolve));
  }

  function dispatch(event: ElicitationEvent) {
    const before = state;
    const after = elicitationTransition(before, event, questions);
    if (after === before) return;
    state = after;
    if (after.status !== "pending") slot?.clear();
    else if (before.status !== "pending" || before.draft !== after.draft) slot?.save(after.draft);
    emit(build());
    run(before, after);
  }

  /** Starts what the new state asks for: the pattern engine, or sending an answer or a skip. */
  function run(before: ElicitationState, after: ElicitationState) {
    if (after.status !== "pending") return;
    if (after.patterns === "loading") loadPatterns();
    const { attempt } = after;
    if (before.status === "pending" && attempt === before.attempt) return;
    if (attempt.type === "none" || attempt.status !== "submitting") return;
    if (attempt.type === "answer") void send(() => options.onAnswer(attempt.answers));
    else if (options.onSkip) void send(options.onSkip);
    else dispatch({ type: "reject", error: "This question set cannot be skipped here.", issues: [] });
  }

  function loadPatterns() {
    if (loadingPatterns) return;
    loadingPatterns = true;
    loadPatternEngine().then(
      () => {
        loadingPatterns = false;
        dispatch({ type: "patterns-ready" });
      },
      (error: unknown) => {
        loadingPatterns = false;
        dispatch({ type: "patterns-failed", error: messageOf(error) });
      },
    );
  }

  // Moves the state by the result: settled; settled elsewhere (a conflict: with the stored
  // outcome, or dismissed when there is none); failed; or refused.
  async function send(request: () => Promise<ElicitationOutcome>) {
    try {
      dispatch({ type: "succeed", outcome: await request() });
    } catch (error) {
      const failure = toToolCallFailure(error);
      if (failure.kind === "network") return dispatch({ type: "fail", error: failure.error });
      if (failure.kind === "conflict")
        return dispatch({ type: "conflict", outcome: readOutcome(failure.output) });
      dispatch({
        type: "reject",
        error: failure.error,
        issues: failure.kind === "invalid" ? failure.issues : [],
      });
    }
  }

  build();
  // A set that starts with an answer or a skip under way only shows it: nothing is sent again.
  if (state.status === "pending" && state.patterns === "loading") loadPatterns();

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    getQuestion: (questionId) => questionStates.get(questionId),
    subscribeQuestion(questionId, listener) {
      const set = questionListeners.get(questionId) ?? new Set();
      questionListeners.set(questionId, set);
      set.add(listener);
      return () => set.delete(listener);
    },
    setValue: (questionId, raw) => dispatch({ type: "set", questionId, raw }),
    toggle: (questionId, value) => dispatch({ type: "toggle", questionId, value }),
    reset: (questionId) => dispatch({ type: "reset", questionId }),
    setIndex: (index) => dispatch({ type: "move", index }),
    next() {
      dispatch({ type: "next" });
      return quiet();
    },
    submit() {
      dispatch({ type: "submit" });
      return quiet();
    },
    skip() {
      dispatch({ type: "skip" });
      return quiet();
    },
    cancelSkip: () => dispatch({ type: "cancel-skip" }),
    retry() {
      dispatch({ type: "retry" });
      return quiet();
    },
    settle: (outcome) => dispatch({ type: "settle", outcome }),
    dismiss: () => dispatch({ type: "dismiss" }),
  };
}
