import { checkQuestions, type DefinitionIssue, withHotkeys } from "@/lib/prepick/core/check-questions";
import { settleAnswers } from "@/lib/prepick/core/outcome";
import type { ElicitationOutcome, ElicitationRequest, Option, Question } from "@/lib/prepick/core/question";

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

const RECOMMENDED = /\(recommended\)\s*$/i;

/** The question id of the OpenCode question at `index`: answers are positional, so ids are too. */
export function openCodeQuestionId(index: number): string {
  return `q${index + 1}`;
}

/**
 * The options of one OpenCode question. Each value is its label (OpenCode replies with labels);
 * a label used by an earlier option gets ` #2`, ` #3`… (never another option's label), so every
 * value is distinct, and maps back to its label in the reply.
 */
function optionsOf(info: OpenCodeQuestionInfo): Option[] {
  const labels = new Set(info.options.map((option) => option.label));
  const taken = new Set<string>();
  const distinct = (label: string) => {
    if (!taken.has(label)) return label;
    // A made-up value never takes a label another option has.
    for (let count = 2; ; count += 1) {
      const value = `${label} #${count}`;
      if (!taken.has(value) && !labels.has(value)) return value;
    }
  };
  return info.options.map((option) => {
    const value = distinct(option.label);
    taken.add(value);
    return {
      value,
      label: option.label,
      ...(option.description ? { description: option.description } : {}),
    };
  });
}

function questionOf(info: OpenCodeQuestionInfo, index: number): Question {
  const base = { id: openCodeQuestionId(index), prompt: info.question };
  // No options: the answer can only be typed, whatever `custom` says.
  if (info.options.length === 0) return { ...base, input: { type: "text" } };
  const options = optionsOf(info);
  const recommended = options.find((option) => RECOMMENDED.test(option.label)) ?? options[0];
  return withHotkeys({
    ...base,
    options,
    ...(info.multiple ? { multiple: true } : {}),
    ...(info.custom !== false ? { allowFreeText: true } : {}),
    defaults: recommended ? [recommended.value] : [],
  });
}

/**
 * Reads an OpenCode question request as a question set. Options keep their labels as values
 * (OpenCode replies with labels; repeated labels get distinct values), the option marked
 * `(Recommended)`, else the first, is the pre-pick, and `custom` (default true) allows free text.
 * A question without options is a text question. See docs/adapters.md for what is lost.
 */
export function openCodeQuestionToRequest(request: OpenCodeQuestionRequest): ParsedOpenCodeQuestion {
  const questions = request.questions.map(questionOf);
  const issues = checkQuestions(questions);
  if (issues.length > 0) return { success: false, issues };
  return { success: true, request: { questions, source: "ask" } };
}

/** The labels OpenCode reads for a question's values: an option's label, free text as typed, each once. */
function labelsOf(question: Question, values: readonly string[]): string[] {
  const labels = values.map(
    (value) => question.options?.find((option) => option.value === value)?.label ?? value,
  );
  return [...new Set(labels)];
}

/** The values a question's labels from OpenCode stand for: the first option with that label, else free text. */
function valuesOf(question: Question, labels: readonly string[]): string[] {
  return labels.map((label) => question.options?.find((option) => option.label === label)?.value ?? label);
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
