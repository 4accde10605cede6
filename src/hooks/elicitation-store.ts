import { type AnswerIssue, validateAnswers } from "@/lib/prepick/core/answers";
import { coerceAnswer } from "@/lib/prepick/core/coerce-answer";
import { describeValue } from "@/lib/prepick/core/outcome";
import { loadPatternEngine, patternEngineReady } from "@/lib/prepick/core/pattern";
import {
  type Answers,
  type ElicitationOutcome,
  ElicitationOutcomeSchema,
  type Question,
} from "@/lib/prepick/core/question";
import { isRequired } from "@/lib/prepick/core/value-problem";
import { toToolCallFailure } from "@/lib/prepick/transport/tool-call-error";
import { answerTransition, INITIAL_ANSWER_STATE } from "./answer-machine";
import { INITIAL_SKIP_STATE, skipTransition } from "./skip-machine";
import type {
  AnswerEvent,
  AnswerState,
  ElicitationQuestionState,
  ElicitationSettled,
  ElicitationSnapshot,
  ElicitationStore,
  SkipEvent,
  SkipState,
} from "./transcript-types";

/**
 * How a store sends answers and skips, and the state it starts in. When a question has a pattern,
 * both are called only once the pattern engine is here, so either may settle in the page.
 */
export interface ElicitationStoreOptions {
  /** Sends the touched answers; resolves with the outcome or throws (a `ToolCallError` for a typed refusal). */
  onAnswer: (answers: Answers) => Promise<ElicitationOutcome>;
  /** Sends a skip; resolves with the outcome or throws. */
  onSkip: (() => Promise<ElicitationOutcome>) | undefined;
  /** Values the person already set (they count as touched). */
  values?: Answers;
  /** Start settled with this outcome. */
  outcome?: ElicitationOutcome;
  /** Start the answer machine in this state. */
  answer?: AnswerState;
  /** Start the skip machine in this state. */
  skip?: SkipState;
  /** Start the one-at-a-time cursor here. */
  index?: number;
  /** Start dismissed (its run was cancelled). */
  dismissed?: boolean;
}

const REJECTED = "Some answers need fixing before they can be sent.";

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

function sameIssues(a: readonly AnswerIssue[], b: readonly AnswerIssue[]): boolean {
  return a.length === b.length && a.every((issue, index) => issue.message === b[index]?.message);
}

/**
 * Whether checking `questions` waits for the pattern engine: one has a pattern and the engine,
 * fetched on first need, is not here yet.
 */
export function waitsForPatterns(questions: readonly Question[]): boolean {
  return !patternEngineReady() && questions.some((question) => question.input?.pattern !== undefined);
}

/** Reads a stored output as an outcome, or undefined when it is not one (a denied or cancelled call). */
export function readOutcome(output: unknown): ElicitationOutcome | undefined {
  const parsed = ElicitationOutcomeSchema.safeParse(output);
  return parsed.success ? parsed.data : undefined;
}

/** The settled view of an outcome: answers by label, which were defaulted, whether skipped. */
export function describeOutcome(
  questions: readonly Question[],
  outcome: ElicitationOutcome,
): ElicitationSettled {
  const defaulted = new Set(outcome.defaulted);
  return {
    outcome,
    skipped: outcome.skipped,
    answers: questions.map((question) => {
      const values = outcome.answers[question.id] ?? [];
      return {
        questionId: question.id,
        prompt: question.prompt,
        values,
        labels: values.map((value) => describeValue(question, value)),
        defaulted: defaulted.has(question.id),
      };
    }),
  };
}

/**
 * The vanilla store behind an elicitation block: values, errors, the cursor and the answer and
 * skip machines. Question snapshots keep their identity until that question changes, so a
 * per-question subscription re-renders one question per keystroke.
 */
export function createElicitationStore(
  questions: readonly Question[],
  options: ElicitationStoreOptions,
): ElicitationStore {
  const touched = new Map<string, string[]>(
    Object.entries(options.values ?? {}).filter(([id]) => questions.some((question) => question.id === id)),
  );
  let refused: AnswerIssue[] = options.answer?.status === "rejected" ? options.answer.issues : [];
  let answer: AnswerState = options.answer ?? INITIAL_ANSWER_STATE;
  let skip: SkipState = options.skip ?? INITIAL_SKIP_STATE;
  let index = Math.max(0, Math.min(options.index ?? 0, questions.length - 1));
  let dismissed = options.dismissed ?? false;
  let outcome: ElicitationOutcome | undefined = options.outcome;
  if (outcome) {
    answer = answerTransition(answer, { type: "settle", outcome });
    skip = skipTransition(skip, { type: "settle", outcome });
  } else if (answer.status === "settled") {
    outcome = answer.outcome;
  } else if (skip.status === "settled") {
    outcome = skip.outcome;
  }

  const listeners = new Set<() => void>();
  const questionListeners = new Map<string, Set<() => void>>();
  const questionStates = new Map<string, ElicitationQuestionState>();
  let snapshot: ElicitationSnapshot;

  const actions = new Map(
    questions.map((question) => [
      question.id,
      {
        setValue: (raw: unknown) => setValue(question.id, raw),
        toggle: (value: string) => toggle(question.id, value),
        reset: () => reset(question.id),
      },
    ]),
  );

  function touchedAnswers(among: readonly Question[] = questions): Answers {
    return Object.fromEntries([...touched].filter(([id]) => among.some((question) => question.id === id)));
  }

  function questionState(question: Question, position: number, local: AnswerIssue[]) {
    const own = refused.filter((issue) => issue.questionId === question.id);
    const mine =
      own.length > 0
        ? own
        : touched.has(question.id)
          ? local.filter((i) => i.questionId === question.id)
          : [];
    const value = touched.get(question.id) ?? question.defaults ?? [];
    const previous = questionStates.get(question.id);
    if (
      previous &&
      previous.touched === touched.has(question.id) &&
      sameList(previous.value, value) &&
      sameIssues(previous.issues, mine)
    ) {
      return previous;
    }
    const state: ElicitationQuestionState = {
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
      touched: touched.has(question.id),
      error: mine[0]?.message,
      issues: mine,
      question,
      ...(actions.get(question.id) as Pick<ElicitationQuestionState, "setValue" | "toggle" | "reset">),
    };
    questionStates.set(question.id, state);
    return state;
  }

  function build(): string[] {
    // Until the pattern engine is here, a question with a pattern is not yet valid, without an error.
    const waiting = waitsForPatterns(questions);
    const checked = waiting
      ? questions.filter((question) => question.input?.pattern === undefined)
      : questions;
    const local = validateAnswers(checked, touchedAnswers(checked));
    const changed: string[] = [];
    const states = questions.map((question, position) => {
      const before = questionStates.get(question.id);
      const after = questionState(question, position, local);
      if (before !== after) changed.push(question.id);
      return after;
    });
    const phase = dismissed ? "dismissed" : outcome ? "settled" : "pending";
    snapshot = {
      phase,
      questions: states,
      isValid: !waiting && local.length === 0,
      index,
      answer,
      skip,
      busy: answer.status === "submitting" || skip.status === "submitting",
      ...(outcome ? { settled: describeOutcome(questions, outcome) } : {}),
    };
    return changed;
  }

  function emit(changed: readonly string[]) {
    for (const id of changed) for (const listener of questionListeners.get(id) ?? []) listener();
    for (const listener of listeners) listener();
  }

  function update() {
    emit(build());
  }

  function send(answerEvent: AnswerEvent | undefined, skipEvent: SkipEvent | undefined) {
    if (answerEvent) answer = answerTransition(answer, answerEvent);
    if (skipEvent) skip = skipTransition(skip, skipEvent);
    const settled = answer.status === "settled" ? answer : skip.status === "settled" ? skip : undefined;
    if (settled && !outcome) {
      outcome = settled.outcome;
      answer = answerTransition(answer, { type: "settle", outcome });
      skip = skipTransition(skip, { type: "settle", outcome });
    }
    if (answerEvent?.type === "reject") refused = answerEvent.issues;
    update();
  }

  function editable(): boolean {
    return !dismissed && !outcome && !snapshot.busy;
  }

  function edited(questionId: string) {
    refused = refused.filter((issue) => issue.questionId !== questionId);
    answer = answerTransition(answer, { type: "edit" });
    update();
  }

  function setValue(questionId: string, raw: unknown) {
    const question = questions.find((candidate) => candidate.id === questionId);
    if (!question || !editable()) return;
    const values = (Array.isArray(raw) ? raw : [raw])
      .map((item) => coerceAnswer(question, item))
      .filter((value) => value !== "");
    touched.set(questionId, question.multiple ? [...new Set(values)] : values);
    edited(questionId);
  }

  function toggle(questionId: string, value: string) {
    const question = questions.find((candidate) => candidate.id === questionId);
    if (!question || !editable()) return;
    const current = touched.get(questionId) ?? question.defaults ?? [];
    if (!question.multiple) return setValue(questionId, value);
    setValue(questionId, current.includes(value) ? current.filter((v) => v !== value) : [...current, value]);
  }

  function reset(questionId: string) {
    if (!editable() || !touched.has(questionId)) return;
    touched.delete(questionId);
    edited(questionId);
  }

  const toAnswer = (event: AnswerEvent) => send(event, undefined);
  const toSkip = (event: SkipEvent) => send(undefined, event);

  // Sends an answer or a skip and moves its machine by the result: settled; settled elsewhere
  // (a conflict: with the stored outcome, or dismissed when there is none); failed; or refused.
  // Patterns are checked first, and callbacks may settle in the page: both need the engine.
  async function attempt(
    to: (event: Extract<AnswerEvent, { type: "succeed" | "conflict" | "fail" | "reject" }>) => void,
    run: () => Promise<ElicitationOutcome | undefined>,
  ) {
    try {
      if (waitsForPatterns(questions)) await loadPatternEngine();
      const result = await run();
      if (result) to({ type: "succeed", outcome: result });
    } catch (error) {
      const failure = toToolCallFailure(error);
      if (failure.kind === "network") return to({ type: "fail", error: failure.error });
      const stored = failure.kind === "conflict" ? readOutcome(failure.output) : undefined;
      if (stored) return to({ type: "conflict", outcome: stored });
      if (failure.kind === "conflict") dismissed = true;
      to({ type: "reject", error: failure.error, issues: failure.kind === "invalid" ? failure.issues : [] });
    }
  }

  const sendAnswers = (answers: Answers) =>
    attempt(toAnswer, async () => {
      const issues = validateAnswers(questions, answers);
      if (issues.length === 0) return options.onAnswer(answers);
      toAnswer({ type: "reject", error: REJECTED, issues });
    });

  const sendSkip = () =>
    attempt(toSkip, async () => {
      if (options.onSkip) return options.onSkip();
      toSkip({ type: "reject", error: "This question set cannot be skipped here." });
    });

  build();
  if (waitsForPatterns(questions)) void loadPatternEngine().then(update, () => {});

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
    setValue,
    toggle,
    reset,
    setIndex(next) {
      const clamped = Math.max(0, Math.min(next, questions.length - 1));
      if (clamped === index) return;
      index = clamped;
      update();
    },
    async submit() {
      if (!editable()) return;
      const answers = touchedAnswers();
      toAnswer({ type: "submit", answers });
      await sendAnswers(answers);
    },
    async skip() {
      if (!editable()) return;
      toSkip({ type: "skip" });
      await sendSkip();
    },
    async retry() {
      if (answer.status === "failed") {
        const answers = answer.answers;
        toAnswer({ type: "retry" });
        return sendAnswers(answers);
      }
      if (skip.status === "failed" || skip.status === "rejected") {
        toSkip({ type: "retry" });
        return sendSkip();
      }
    },
    settle(settledWith) {
      if (outcome) return;
      send({ type: "settle", outcome: settledWith }, { type: "settle", outcome: settledWith });
    },
    dismiss() {
      if (dismissed || outcome) return;
      dismissed = true;
      update();
    },
  };
}
