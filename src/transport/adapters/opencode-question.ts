import { checkQuestions, type DefinitionIssue } from "@/lib/prepick/core/check-questions";
import { settleAnswers } from "@/lib/prepick/core/outcome";
import type { ElicitationOutcome, ElicitationRequest } from "@/lib/prepick/core/question";
import { labelQuestion, labelsOf, valuesOf } from "./label-choices";

/** One option of an OpenCode question: its label is also the value the reply carries. */
export interface OpenCodeOption {
  /** What the person reads and what the reply sends back. */
  label: string;
  /** A line explaining the choice. */
  description: string;
}

/** One OpenCode question. */
export interface OpenCodeQuestionInfo {
  /** The complete question. */
  question: string;
  /** A very short tab label (not carried). */
  header: string;
  /** The choices; none makes a question answered only in words. */
  options: OpenCodeOption[];
  /** More than one choice allowed. */
  multiple?: boolean;
  /** A typed answer allowed (OpenCode's default: true). */
  custom?: boolean;
}

/** An OpenCode question request (`question.asked`). */
export interface OpenCodeQuestionRequest {
  /** The request id that reply and reject name. */
  id: string;
  /** The session it belongs to. */
  sessionID: string;
  /** The questions, in order. */
  questions: OpenCodeQuestionInfo[];
  /** The tool call that asked, when a tool did. */
  tool?: { messageID: string; callID: string };
}

/** What to send OpenCode for a settled question set: a reply with labels per question, or a reject. */
export type OpenCodeAnswer = { type: "reply"; answers: string[][] } | { type: "reject" };

/** The result of reading an OpenCode question request. */
export type ParsedOpenCodeQuestion =
  | { success: true; request: ElicitationRequest }
  | { success: false; issues: DefinitionIssue[] };

/** The question id of the OpenCode question at `index`: answers are positional, so ids are too. */
export function openCodeQuestionId(index: number): string {
  return `q${index + 1}`;
}

/**
 * Reads an OpenCode question request as a question set. Options keep their labels as values
 * (OpenCode replies with labels; repeated labels get distinct values), the option marked
 * `(Recommended)`, else the first, is the pre-pick, and `custom` (default true) allows free text.
 * A question without options is a text question. See docs/adapters.md for what is lost.
 */
export function openCodeQuestionToRequest(request: OpenCodeQuestionRequest): ParsedOpenCodeQuestion {
  const questions = request.questions.map((info, index) =>
    labelQuestion({
      id: openCodeQuestionId(index),
      prompt: info.question,
      options: info.options,
      multiple: info.multiple ?? false,
      // No options: the answer can only be typed, whatever `custom` says.
      freeText: info.custom !== false,
    }),
  );
  const issues = checkQuestions(questions);
  if (issues.length > 0) return { success: false, issues };
  return { success: true, request: { questions, source: "ask" } };
}

/**
 * What to send OpenCode for an outcome: answered or skipped → a reply with each question's labels
 * in order (a skip replies with the pre-picks; OpenCode has no skip), dismissed → a reject.
 */
export function outcomeToOpenCodeAnswer(
  request: ElicitationRequest,
  outcome: ElicitationOutcome | undefined,
): OpenCodeAnswer {
  if (!outcome) return { type: "reject" };
  return {
    type: "reply",
    answers: request.questions.map((question) => labelsOf(question, outcome.answers[question.id] ?? [])),
  };
}

/** The outcome an OpenCode reply stands for (its answers are labels, in question order). */
export function openCodeReplyToOutcome(
  request: ElicitationRequest,
  answers: readonly string[][],
): ElicitationOutcome {
  const given = Object.fromEntries(
    request.questions.flatMap((question, index) => {
      const labels = answers[index];
      return labels === undefined ? [] : [[question.id, valuesOf(question, labels)]];
    }),
  );
  return settleAnswers(request.questions, given);
}
