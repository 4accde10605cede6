import { type AnswerIssue, validateAnswers } from "@/lib/prepick/core/answers";
import type { Answers, Question } from "@/lib/prepick/core/question";
import { isRequired } from "@/lib/prepick/core/value-problem";
import { describeOutcome } from "./describe-outcome";
import { answerView, isBusy, skipView } from "./elicitation-machine";
import { characterCount, issueSentence } from "./issue-sentence";
import type { PrepickMessages } from "./prepick-messages";
import type {
  ElicitationQuestionState,
  ElicitationSnapshot,
  ElicitationState,
  PendingElicitation,
} from "./transcript-types";

/** What a question's state carries to change it: the store's own actions for that question. */
export type QuestionActions = Pick<ElicitationQuestionState, "setValue" | "toggle" | "reset">;

/** A snapshot read from a state, with each question's state (kept when that question did not change). */
export interface ReadSnapshot {
  /** What a form reads about the set. */
  snapshot: ElicitationSnapshot;
  /** Each question's state, by id. */
  questions: ReadonlyMap<string, ElicitationQuestionState>;
}

function sameList(a: readonly unknown[], b: readonly unknown[]): boolean {
  return a.length === b.length && a.every((item, index) => item === b[index]);
}

function sameIssues(a: readonly AnswerIssue[], b: readonly AnswerIssue[]): boolean {
  return a.length === b.length && a.every((issue, index) => issue.message === b[index]?.message);
}

function pick(values: Answers, among: readonly Question[]): Answers {
  const picked: Answers = {};
  for (const question of among) {
    const given = values[question.id];
    if (given) picked[question.id] = given;
  }
  return picked;
}

/** The sentence the person reads for what went wrong with the whole set, if anything did. */
function formError(
  pending: PendingElicitation,
  questions: readonly Question[],
  messages: PrepickMessages,
): string | undefined {
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

/**
 * Reads a question set's state as a form reads it: the snapshot (validity, the views of the
 * answer and the skip, the set's error, the settled answers) and each question's state (its value,
 * its error as a sentence, its character count). Pure, apart from what it remembers of the last
 * read: a question's state keeps its identity until that question changes, and so do the answer
 * and skip views, so a form subscribed to one question re-renders for that question only.
 */
export function snapshotReader(
  questions: readonly Question[],
  messages: PrepickMessages,
  actions: ReadonlyMap<string, QuestionActions>,
): (state: ElicitationState) => ReadSnapshot {
  const withPatterns = questions.filter((question) => question.input?.pattern !== undefined);
  const withoutPatterns = questions.filter((question) => question.input?.pattern === undefined);
  const leftToAgent = questions
    .filter((question) => (question.defaults ?? []).length === 0)
    .map((question) => question.id);
  let last = new Map<string, ElicitationQuestionState>();
  let views:
    | { source: unknown; answer: ElicitationSnapshot["answer"]; skip: ElicitationSnapshot["skip"] }
    | undefined;

  function questionState(
    state: ElicitationState,
    question: Question,
    position: number,
    local: readonly AnswerIssue[],
  ): ElicitationQuestionState {
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
    const previous = last.get(question.id);
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
    return {
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
      ...(actions.get(question.id) as QuestionActions),
    };
  }

  return (state) => {
    const pending = state.status === "pending" ? state : undefined;
    // Until the pattern engine is here, a question with a pattern is not yet valid, without an error.
    const waiting = pending !== undefined && pending.patterns !== "ready" && withPatterns.length > 0;
    const checked = waiting ? withoutPatterns : questions;
    const local = pending ? validateAnswers(checked, pick(pending.draft.values, checked)) : [];
    const states = questions.map((question, position) => questionState(state, question, position, local));
    last = new Map(states.map((questionState) => [questionState.id, questionState]));
    const source = pending ? pending.attempt : state;
    views = views?.source === source ? views : { source, answer: answerView(state), skip: skipView(state) };
    const attempt = pending?.attempt;
    const snapshot: ElicitationSnapshot = {
      state,
      phase: state.status,
      questions: states,
      isValid: pending !== undefined && !waiting && local.length === 0,
      index: pending?.draft.index ?? 0,
      leftToAgent,
      answer: views.answer,
      skip: views.skip,
      busy: attempt !== undefined && isBusy(attempt),
      error: pending ? formError(pending, questions, messages) : undefined,
      canRetry:
        attempt !== undefined &&
        attempt.type !== "none" &&
        (attempt.status === "failed" || (attempt.type === "skip" && attempt.status === "rejected")),
      ...(state.status === "settled" ? { settled: describeOutcome(questions, state.outcome, messages) } : {}),
    };
    return { snapshot, questions: last };
  };
}
