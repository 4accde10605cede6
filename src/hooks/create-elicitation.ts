import { settleAnswers, settleSkipped } from "@/lib/prepick/core/outcome";
import type { Answers, ElicitationOutcome, ElicitationRequest, Question } from "@/lib/prepick/core/question";
import { type DraftStorage, draftSlot } from "./draft-storage";
import type { ElicitationStart } from "./elicitation-machine";
import { createElicitationStore } from "./elicitation-store";
import { type PrepickMessagesInput, resolveMessages } from "./prepick-messages";
import type { ElicitationBlock } from "./transcript-types";

/**
 * What {@link createElicitation} needs: the request, how to send, and where to start (values,
 * index, an answer or skip under way in the views' terms, an outcome, or dismissed).
 */
export interface CreateElicitationOptions extends ElicitationStart {
  /** The tool call id (any unique string outside a chat). */
  id: string;
  /** The preamble and questions, as an elicitation frame carries them. */
  request: ElicitationRequest;
  /** The assistant message the set belongs to, if any. */
  messageId?: string;
  /** Its run's opt-in deadline (ISO 8601), when it has one. */
  expiresAt?: string | undefined;
  /**
   * Sends the touched answers and resolves with the outcome. Throw a `ToolCallError` to refuse
   * with issues (`invalid`), report a `conflict`, or a plain error for a network failure. Left
   * out, the set settles locally with `settleAnswers`.
   */
  onAnswer?: (answers: Answers) => Promise<ElicitationOutcome>;
  /** Sends a skip and resolves with the outcome. Left out, the set settles locally with `settleSkipped`. */
  onSkip?: () => Promise<ElicitationOutcome>;
  /** Sentences in the app's language, laid over the English defaults. */
  messages?: PrepickMessagesInput;
  /**
   * Keep the pending draft (values touched, current question) here, under the set's `id`, so it
   * survives a reload: restored when the block starts without `values` or `index`, forgotten once
   * it settles. Left out, nothing is kept (`useChatTranscript` passes session storage).
   */
  drafts?: DraftStorage;
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
 * An elicitation block without a chat or a server: the same store, state, `setValue`,
 * `isValid` and errors that `useChatTranscript` exposes. For stories, tests and custom runners;
 * any state can be the starting one, or reached by driving the block.
 */
export function createElicitation(options: CreateElicitationOptions): ElicitationBlock {
  const { request } = options;
  const questions = request.questions;
  const local = settleLocally(questions);
  const messages = resolveMessages(options.messages);
  const store = createElicitationStore(questions, {
    ...options,
    onAnswer: options.onAnswer ?? local.onAnswer,
    onSkip: options.onSkip ?? local.onSkip,
    messages,
    draft: options.drafts ? draftSlot(options.drafts, options.id) : undefined,
  });
  return {
    ...store,
    type: "elicitation",
    id: options.id,
    messageId: options.messageId,
    source: request.source ?? "ask",
    preamble: request.preamble,
    request,
    ...(options.expiresAt !== undefined ? { expiresAt: options.expiresAt } : {}),
    messages,
    get questions() {
      return store.getSnapshot().questions;
    },
    get isValid() {
      return store.getSnapshot().isValid;
    },
  };
}
