import { coerceAnswer } from "./coerce-answer";
import type { Answers, Question } from "./question";
import { countProblem, isCount, isRequired, type Rule, valueProblem } from "./value-problem";

/** One refused answer, placed on the question it names. */
export interface AnswerIssue {
  /** The question the issue belongs to (or the unknown id that was sent). */
  questionId: string;
  /** A whole sentence, e.g. `answers["seats"] must be at most 9`. */
  message: string;
  /** The rule that refused it. */
  rule: Rule;
  /** The refused value, when one value is to blame. */
  value?: string;
}

/** The result of reading untrusted JSON as answers. */
export type ParsedAnswers = { success: true; answers: Answers } | { success: false; issues: AnswerIssue[] };

function label(questionId: string): string {
  return `answers[${JSON.stringify(questionId)}]`;
}

/**
 * Reads untrusted JSON (a request body's `answers`) as {@link Answers}: an object whose values are
 * arrays of strings. `undefined` reads as no answers, which confirms every default.
 */
export function parseAnswers(input: unknown): ParsedAnswers {
  if (input === undefined || input === null) return { success: true, answers: {} };
  if (typeof input !== "object" || Array.isArray(input)) {
    return {
      success: false,
      issues: [
        {
          questionId: "",
          rule: "shape",
          message: "answers must be an object mapping question ids to arrays of strings",
        },
      ],
    };
  }
  const issues: AnswerIssue[] = [];
  const entries: [string, string[]][] = [];
  for (const [questionId, values] of Object.entries(input)) {
    if (Array.isArray(values) && values.every((value) => typeof value === "string")) {
      entries.push([questionId, values]);
    } else {
      issues.push({
        questionId,
        rule: "shape",
        message: `${label(questionId)} must be an array of strings, such as ["yes"]`,
      });
    }
  }
  return issues.length > 0
    ? { success: false, issues }
    : { success: true, answers: Object.fromEntries(entries) };
}

function given(answers: Answers, questionId: string): string[] | undefined {
  return Object.hasOwn(answers, questionId) ? answers[questionId] : undefined;
}

function canonicalValues(question: Question, values: readonly string[]): string[] {
  const canonical = values.map((value) => coerceAnswer(question, value)).filter((value) => value !== "");
  return [...new Set(canonical)];
}

function usableDefaults(question: Question): string[] {
  return canonicalValues(question, question.defaults ?? []).filter(
    (value) => valueProblem(question, value) === undefined,
  );
}

/**
 * Every reason the server would refuse `answers` for `questions`: unknown question ids, values
 * that are not options (unless free text is allowed), more than one value without `multiple`,
 * fewer than `minItems` or more than `maxItems` values, type errors, `min`/`max`/`step`/`pattern`,
 * and a required question left with neither an answer nor a default. Values are coerced first, so `"042"` passes where `"42"` would. Empty when valid.
 */
export function validateAnswers(questions: readonly Question[], answers: Answers): AnswerIssue[] {
  const issues: AnswerIssue[] = [];
  const known = new Set(questions.map((question) => question.id));
  for (const questionId of Object.keys(answers)) {
    if (!known.has(questionId)) {
      issues.push({
        questionId,
        rule: "unknown-question",
        message: `${label(questionId)} is not one of this set's questions`,
      });
    }
  }
  for (const question of questions) {
    const raw = given(answers, question.id);
    const values = raw === undefined ? usableDefaults(question) : canonicalValues(question, raw);
    if (raw !== undefined) {
      if (values.length > 1 && !question.multiple) {
        issues.push({
          questionId: question.id,
          rule: "multiple",
          message: `${label(question.id)} must hold one value, not ${values.length}`,
        });
      }
      for (const value of values) {
        const problem = valueProblem(question, value);
        if (problem) {
          issues.push({
            questionId: question.id,
            rule: problem.rule,
            value,
            message: `${label(question.id)} ${problem.text}`,
          });
        }
      }
    }
    if (values.length === 0 && isRequired(question)) {
      issues.push({
        questionId: question.id,
        rule: "required",
        message: `${label(question.id)} is required`,
      });
    } else if (raw !== undefined) {
      const problem = countProblem(question, values.length);
      if (problem) {
        issues.push({
          questionId: question.id,
          rule: problem.rule,
          message: `${label(question.id)} ${problem.text}`,
        });
      }
    }
  }
  return issues;
}

/** The answers after resolution: every question's values, and which came from defaults. */
export interface ResolvedAnswers {
  /** Every question's canonical values, in question order. */
  answers: Answers;
  /** The ids of questions the person left out, filled from their own defaults. */
  defaulted: string[];
}

/**
 * Resolves answers against their questions, as the server and the loop do: an omitted question
 * takes its own defaults (and is listed in `defaulted`), values are made canonical, and anything
 * unusable (unknown ids, refused values, extra values of a single-value question, values past
 * `maxItems`) is dropped. A question whose every value was dropped, or left with fewer than its
 * `minItems`, falls back to its defaults; an explicit `[]` stays empty where it is allowed.
 */
export function resolveAnswers(questions: readonly Question[], answers: Answers): ResolvedAnswers {
  const resolved: [string, string[]][] = [];
  const defaulted: string[] = [];
  for (const question of questions) {
    const raw = given(answers, question.id);
    let values =
      raw === undefined
        ? []
        : canonicalValues(question, raw).filter((value) => valueProblem(question, value) === undefined);
    values = values.slice(
      0,
      question.multiple ? (isCount(question.maxItems) ? question.maxItems : undefined) : 1,
    );
    // Too few values to stand on their own is as unusable as none.
    const tooFew = raw !== undefined && countProblem(question, values.length)?.rule === "min-items";
    const dropped = raw !== undefined && ((raw.length > 0 && values.length === 0) || tooFew);
    if (raw === undefined || dropped) {
      values = usableDefaults(question);
      if (!question.multiple) values = values.slice(0, 1);
      if (values.length > 0) defaulted.push(question.id);
    }
    resolved.push([question.id, values]);
  }
  return { answers: Object.fromEntries(resolved), defaulted };
}
