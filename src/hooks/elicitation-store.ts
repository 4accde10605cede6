import { loadPatternEngine, patternEngineReady } from "@/lib/prepick/core/pattern";
import type { Answers, ElicitationOutcome, Question } from "@/lib/prepick/core/question";
import { messageOf, toToolCallFailure } from "@/lib/prepick/transport/tool-call-error";
import { createStore, type WritableStore } from "./create-store";
import { readOutcome } from "./describe-outcome";
import type { DraftSlot } from "./draft-storage";
import { type ElicitationStart, elicitationTransition, initialElicitationState } from "./elicitation-machine";
import { type QuestionActions, snapshotReader } from "./elicitation-snapshot";
import { englishMessages, type PrepickMessages } from "./prepick-messages";
import type {
  ElicitationEvent,
  ElicitationQuestionState,
  ElicitationState,
  ElicitationStore,
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

/** Whether nothing is being checked or sent: the point where `submit()`, `skip()`… resolve. */
function isQuiet(state: ElicitationState): boolean {
  if (state.status !== "pending" || state.attempt.type === "none") return true;
  return state.attempt.status !== "checking" && state.attempt.status !== "submitting";
}

/**
 * The vanilla store behind an elicitation block: the set's one state (moved only by
 * `elicitationTransition`), the snapshot read from it (`snapshotReader`), and the effects the
 * state asks for: sending an answer or a skip, loading the pattern engine, keeping the draft. The
 * whole snapshot and each question are stores of their own, so a per-question subscription
 * re-renders one question per keystroke.
 */
export function createElicitationStore(
  questions: readonly Question[],
  options: ElicitationStoreOptions,
): ElicitationStore {
  const slot = options.draft;
  const restored = options.values === undefined && options.index === undefined ? slot?.load() : undefined;
  let state = initialElicitationState(questions, { ...options, ...restored }, patternEngineReady());
  if (state.status !== "pending") slot?.clear();

  const actions = new Map<string, QuestionActions>(
    questions.map((question) => [
      question.id,
      {
        setValue: (raw: unknown) => dispatch({ type: "set", questionId: question.id, raw }),
        toggle: (value: string) => dispatch({ type: "toggle", questionId: question.id, value }),
        reset: () => dispatch({ type: "reset", questionId: question.id }),
      },
    ]),
  );
  const read = snapshotReader(questions, options.messages ?? englishMessages, actions);
  const first = read(state);
  const snapshot = createStore(first.snapshot);
  const questionStores = new Map<string, WritableStore<ElicitationQuestionState>>(
    [...first.questions].map(([id, questionState]) => [id, createStore(questionState)]),
  );
  let waiters: (() => void)[] = [];
  let loadingPatterns = false;

  /** Tells what changed: each question that did (its own listeners first), then the set. */
  function publish() {
    const next = read(state);
    for (const [id, questionState] of next.questions) questionStores.get(id)?.set(questionState);
    snapshot.set(next.snapshot);
    if (!isQuiet(state)) return;
    const resolved = waiters;
    waiters = [];
    for (const resolve of resolved) resolve();
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
    publish();
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

  // A set that starts with an answer or a skip under way only shows it: nothing is sent again.
  if (state.status === "pending" && state.patterns === "loading") loadPatterns();

  const noQuestion = () => () => {};
  return {
    getSnapshot: snapshot.getSnapshot,
    subscribe: snapshot.subscribe,
    getQuestion: (questionId) => questionStores.get(questionId)?.getSnapshot(),
    subscribeQuestion: (questionId, listener) =>
      (questionStores.get(questionId)?.subscribe ?? noQuestion)(listener),
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
