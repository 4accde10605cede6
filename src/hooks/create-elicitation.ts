import { settleAnswers, settleSkipped } from "@/lib/prepick/core/outcome";
import type { Answers, ElicitationOutcome, ElicitationRequest, Question } from "@/lib/prepick/core/question";
import { createElicitationStore } from "./elicitation-store";
import type { AnswerState, ElicitationBlock, SkipState } from "./transcript-types";

/** What {@link createElicitation} needs: the request, how to send, and the state to start in. */
export interface CreateElicitationOptions {
  /** The tool call id (any unique string outside a chat). */
  id: string;
  /** The preamble and questions, as an elicitation frame carries them. */
  request: ElicitationRequest;
  /** The assistant message the set belongs to, if any. */
  messageId?: string;
  /**
   * Sends the touched answers and resolves with the outcome. Throw a `ToolCallError` to refuse
   * with issues (`invalid`), report a `conflict`, or a plain error for a network failure. Left
   * out, the set settles locally with `settleAnswers`.
   */
  onAnswer?: (answers: Answers) => Promise<ElicitationOutcome>;
  /** Sends a skip and resolves with the outcome. Left out, the set settles locally with `settleSkipped`. */
  onSkip?: () => Promise<ElicitationOutcome>;
  /** Start settled with this outcome. */
  outcome?: ElicitationOutcome;
  /** Values the person already set (they count as touched). */
  values?: Answers;
  /** Start the answer machine here (e.g. `rejected` with issues, `failed`, `submitting`). */
  answer?: AnswerState;
  /** Start the skip machine here. */
  skip?: SkipState;
  /** Start the one-at-a-time cursor on this question. */
  index?: number;
  /** Start dismissed (its run was cancelled before an answer). */
  dismissed?: boolean;
}

/**
 * An answer and a skip that settle in the page, with `settleAnswers` and `settleSkipped`, each
 * outcome passed on to `output`. The store calls them once the pattern engine is here.
 */
export function settleLocally(
  questions: readonly Question[],
  output: (outcome: ElicitationOutcome) => Promise<ElicitationOutcome> = async (outcome) => outcome,
) {
  return {
    onAnswer: (answers: Answers) => output(settleAnswers(questions, answers)),
    onSkip: () => output(settleSkipped(questions)),
  };
}

/**
 * An elicitation block without a chat or a server: the same store, state machines, `setValue`,
 * `isValid` and errors that `useChatTranscript` exposes. For stories, tests and custom runners;
 * any state can be the starting one, or reached by driving the block.
 */
export function createElicitation(options: CreateElicitationOptions): ElicitationBlock {
  const { request } = options;
  const questions = request.questions;
  const local = settleLocally(questions);
  const store = createElicitationStore(questions, {
    ...options,
    onAnswer: options.onAnswer ?? local.onAnswer,
    onSkip: options.onSkip ?? local.onSkip,
  });
  return {
    ...store,
    type: "elicitation",
    id: options.id,
    messageId: options.messageId,
    source: request.source ?? "ask",
    preamble: request.preamble,
    request,
    get questions() {
      return store.getSnapshot().questions;
    },
    get isValid() {
      return store.getSnapshot().isValid;
    },
  };
}
