import { coerceAnswer } from "./coerce-answer";
import type { Answers, Question } from "./question";

/**
 * How a person settled a tool call whose input they could edit, as the approval's settlement
 * records it and the `tool-approved` frame carries it: the input the tool runs with, and the
 * fields the person changed from what the model proposed (`[]` when approved as proposed).
 */
export interface ApprovalEdits {
  /** The whole input the tool runs with: the model's proposal with the person's edits applied. */
  input: Record<string, unknown>;
  /** The ids of the editable fields whose value differs from the proposal, in question order. */
  edited: string[];
}

function canonical(question: Question, values: readonly unknown[]): string[] {
  const written = values.map((value) => coerceAnswer(question, value)).filter((value) => value !== "");
  return [...new Set(written)];
}

/**
 * A tool input's editable fields as answers, one question per field (its id the field's name):
 * each value in the question's canonical form (`42` → `"42"`, `true` → `"true"`), an array as
 * its values, and a field left out or `null` as no value. What an editable approval pre-picks.
 */
export function answersOfInput(questions: readonly Question[], input: unknown): Answers {
  const record = typeof input === "object" && input !== null && !Array.isArray(input) ? input : {};
  const answers: Answers = {};
  for (const question of questions) {
    const value = Object.hasOwn(record, question.id)
      ? (record as Record<string, unknown>)[question.id]
      : undefined;
    answers[question.id] =
      value === undefined || value === null
        ? []
        : canonical(question, Array.isArray(value) ? value : [value]);
  }
  return answers;
}

/**
 * The input value of one field from its answer: a number for a `number` question, a boolean for
 * a `boolean` one, the values for a `multiple` one, else the text. `undefined` when the answer
 * holds no value (a single-value question) — the caller decides whether that leaves the field
 * out or sets it to `null`.
 */
export function inputValueOf(question: Question, values: readonly string[]): unknown {
  const written = canonical(question, values);
  if (question.multiple) return written;
  const [value] = written;
  if (value === undefined) return undefined;
  if (question.input?.type === "number") return Number(value);
  if (question.input?.type === "boolean") return value === "true";
  return value;
}

function sameValues(question: Question, a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  // Checkboxes hold a set: the same picks in another order change nothing a person chose.
  return question.multiple
    ? a.every((value) => b.includes(value))
    : a.every((value, index) => value === b[index]);
}

/**
 * The questions of an editable approval whose answer differs from its pre-picked value (the
 * model's proposal), in question order. A question left out of `answers` keeps the proposal;
 * one sent with exactly the proposed value (for a `multiple` one, the same values in any order)
 * is not an edit, since the tool runs the same.
 */
export function editedQuestions(questions: readonly Question[], answers: Answers): string[] {
  return questions
    .filter((question) => {
      if (!Object.hasOwn(answers, question.id)) return false;
      const proposed = canonical(question, question.defaults ?? []);
      return !sameValues(question, canonical(question, answers[question.id] ?? []), proposed);
    })
    .map((question) => question.id);
}
