import { checkQuestions, type DefinitionIssue } from "@/lib/prepick/core/check-questions";
import { settleAnswers } from "@/lib/prepick/core/outcome";
import type { ElicitationOutcome, ElicitationRequest, Question } from "@/lib/prepick/core/question";
import { type LabelOption, labelQuestion, labelsOf, valuesOf } from "./label-choices";

/** The name Claude's Agent SDK gives the tool, as `canUseTool` receives it. */
export const CLAUDE_ASK_USER_QUESTION = "AskUserQuestion";

/** One option of an AskUserQuestion question. */
export interface ClaudeQuestionOption extends LabelOption {
  /** Content shown while the option is focused (not carried). */
  preview?: string;
}

/** One AskUserQuestion question. */
export interface ClaudeQuestion {
  /** The complete question; also the key of its answer. */
  question: string;
  /** A very short chip label (not shown; echoed back as it came). */
  header: string;
  /** The choices; Claude's own "Other" (a typed answer) is always offered beside them. */
  options: readonly ClaudeQuestionOption[];
  /** More than one choice allowed. */
  multiSelect: boolean;
}

/**
 * AskUserQuestion's input, as `canUseTool` receives it (the SDK's `AskUserQuestionInput`). A type,
 * not an interface, so that it is a `Record<string, unknown>` as `updatedInput` must be.
 */
export type ClaudeAskUserQuestionInput = {
  /** The questions, in order. */
  questions: readonly ClaudeQuestion[];
  /** The answers, once given: question text to label(s). */
  answers?: Record<string, string>;
};

/** What `canUseTool` returns for a settled set: the SDK's `PermissionResult`. */
export type ClaudePermissionResult =
  | { behavior: "allow"; updatedInput: ClaudeAskUserQuestionInput & { answers: Record<string, string> } }
  | { behavior: "deny"; message: string };

/** The result of reading an AskUserQuestion input. */
export type ParsedClaudeQuestions =
  | { success: true; request: ElicitationRequest; input: ClaudeAskUserQuestionInput }
  | { success: false; issues: DefinitionIssue[] };

/** What `canUseTool` returns when the person closed the questions without answering. */
export const CLAUDE_DISMISSED_MESSAGE = "The user closed the questions without answering.";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Every way `input` is not AskUserQuestion's shape, read as it arrives (a record of unknowns). */
function shapeIssues(input: unknown): DefinitionIssue[] {
  const issue = (path: string, text: string) => ({ path, message: `${path} ${text}` });
  if (!isRecord(input) || !Array.isArray(input.questions)) {
    return [issue("questions", "must be an array of questions")];
  }
  return input.questions.flatMap((asked: unknown, index) => {
    const at = `questions[${index}]`;
    if (!isRecord(asked)) return [issue(at, "must be an object")];
    const found: DefinitionIssue[] = [];
    if (typeof asked.question !== "string") found.push(issue(`${at}.question`, "must be a string"));
    if (asked.multiSelect !== undefined && typeof asked.multiSelect !== "boolean") {
      found.push(issue(`${at}.multiSelect`, "must be true or false"));
    }
    if (!Array.isArray(asked.options)) return [...found, issue(`${at}.options`, "must be an array")];
    asked.options.forEach((option: unknown, position) => {
      const label = isRecord(option) ? option.label : undefined;
      if (typeof label !== "string")
        found.push(issue(`${at}.options[${position}].label`, "must be a string"));
    });
    return found;
  });
}

/** The question id of the AskUserQuestion question at `index` (its answer is keyed by its text). */
export function claudeQuestionId(index: number): string {
  return `q${index + 1}`;
}

/**
 * Reads AskUserQuestion's input (as `canUseTool` gets it) as a question set: each question's text
 * its prompt, its options by label (repeated labels get distinct values), `multiSelect` as
 * `multiple`, and free text always allowed, for Claude's "Other". The option whose label ends
 * `(Recommended)`, else the first, is the pre-pick. See docs/adapters.md for what is lost.
 */
export function claudeQuestionsToRequest(
  input: ClaudeAskUserQuestionInput | Record<string, unknown>,
): ParsedClaudeQuestions {
  const shape = shapeIssues(input);
  if (shape.length > 0) return { success: false, issues: shape };
  const read = input as ClaudeAskUserQuestionInput;
  const questions = read.questions.map((asked, index) =>
    labelQuestion({
      id: claudeQuestionId(index),
      prompt: asked.question,
      options: asked.options.map((option) => ({
        label: option.label,
        description: option.description ?? "",
      })),
      multiple: asked.multiSelect === true,
      freeText: true,
    }),
  );
  const issues = checkQuestions(questions);
  if (issues.length > 0) return { success: false, issues };
  return { success: true, request: { questions, source: "ask" }, input: read };
}

/** An answer as Claude reads it: the label, or the labels joined by ", " for a multi-select. */
function answerText(question: Question, values: readonly string[]): string {
  return labelsOf(question, values).join(", ");
}

/**
 * What `canUseTool` returns for an outcome. Answered → `allow` with the input and its `answers`
 * (question text → label, labels joined by ", ", free text as typed), as the SDK documents.
 * Skipped → `deny` with the outcome's summary, which tells Claude the choices are left to it and
 * what its pre-picks were. Dismissed (no outcome) → `deny` saying so.
 */
export function outcomeToClaudePermissionResult(
  input: ClaudeAskUserQuestionInput,
  request: ElicitationRequest,
  outcome: ElicitationOutcome | undefined,
): ClaudePermissionResult {
  if (!outcome) return { behavior: "deny", message: CLAUDE_DISMISSED_MESSAGE };
  if (outcome.skipped) return { behavior: "deny", message: outcome.summary };
  const answers = Object.fromEntries(
    input.questions.flatMap((asked, index) => {
      const question = request.questions[index];
      if (!question) return [];
      return [[asked.question, answerText(question, outcome.answers[question.id] ?? [])]];
    }),
  );
  return { behavior: "allow", updatedInput: { ...input, answers } };
}

/** Splits a multi-select's answer back into labels, keeping whole any option label that holds ", ". */
function splitLabels(question: Question, text: string): string[] {
  if (text === "") return [];
  if (!question.multiple) return [text];
  const labels = (question.options ?? []).map((option) => option.label).sort((a, b) => b.length - a.length);
  const found: string[] = [];
  let rest = text;
  while (rest !== "") {
    const label = labels.find((candidate) => rest === candidate || rest.startsWith(`${candidate}, `));
    const piece = label ?? rest.split(", ")[0] ?? rest;
    found.push(piece);
    rest = rest.slice(piece.length).replace(/^, /, "");
  }
  return found;
}

/** The outcome AskUserQuestion's `answers` stand for (question text → label(s) or typed text). */
export function claudeAnswersToOutcome(
  input: ClaudeAskUserQuestionInput,
  request: ElicitationRequest,
  answers: Readonly<Record<string, string>>,
): ElicitationOutcome {
  const given = Object.fromEntries(
    input.questions.flatMap((asked, index) => {
      const question = request.questions[index];
      const text = Object.hasOwn(answers, asked.question) ? answers[asked.question] : undefined;
      if (!question || text === undefined) return [];
      return [[question.id, valuesOf(question, splitLabels(question, text))]];
    }),
  );
  return settleAnswers(request.questions, given);
}
