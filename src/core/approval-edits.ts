import { coerceAnswer } from "./coerce-answer";
import { describeValue, summaryLine } from "./outcome";
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

/**
 * Reads untrusted JSON (an approval's settled output, a frame, a part's metadata) as
 * {@link ApprovalEdits}: an `input` object and an `edited` list of strings, or undefined.
 */
export function readApprovalEdits(value: unknown): ApprovalEdits | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const { input, edited } = value as Partial<Record<keyof ApprovalEdits, unknown>>;
  if (typeof input !== "object" || input === null || Array.isArray(input)) return undefined;
  if (!Array.isArray(edited) || !edited.every((field) => typeof field === "string")) return undefined;
  return { input: input as Record<string, unknown>, edited };
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

/**
 * The input a person's answers make of the model's proposal: each edited field
 * ({@link editedQuestions}) takes its answer's value ({@link inputValueOf}); one the person
 * emptied is left out, or set to `null` where `emptied(id)` says the input allows it. Every other
 * field stays exactly as the model proposed it.
 */
export function applyEdits(
  questions: readonly Question[],
  proposed: unknown,
  answers: Answers,
  emptied: (questionId: string) => "omit" | "null" = () => "omit",
): ApprovalEdits {
  const input: Record<string, unknown> = {
    ...(typeof proposed === "object" && proposed !== null && !Array.isArray(proposed) ? proposed : {}),
  };
  const edited = editedQuestions(questions, answers);
  for (const id of edited) {
    const question = questions.find((candidate) => candidate.id === id) as Question;
    const value = inputValueOf(question, answers[id] ?? []);
    if (value !== undefined) input[id] = value;
    else if (emptied(id) === "null") input[id] = null;
    else delete input[id];
  }
  return { input, edited };
}

/** The first line of what the model reads about a call a person edited before approving it. */
export const EDITED_HEADING =
  "The person approving this call edited its input, and the tool ran with their input, not the one you proposed:";

function labels(question: Question, values: readonly string[]): string {
  const text = values.map((value) => describeValue(question, value)).join(", ");
  return text === "" ? "(no value)" : text;
}

/**
 * What the model reads about the edits, as `summarize` tells it the answers: the heading,
 * then one line per edited field by its label with the value it proposed:
 * `How far back? → 24 (you proposed 72)`.
 */
export function summarizeEdits(questions: readonly Question[], edits: ApprovalEdits): string {
  const ran = answersOfInput(questions, edits.input);
  const lines = edits.edited.flatMap((id) => {
    const question = questions.find((candidate) => candidate.id === id);
    if (!question) return [];
    return [
      `${summaryLine(question, ran[id] ?? [])} (you proposed ${labels(question, question.defaults ?? [])})`,
    ];
  });
  return [EDITED_HEADING, ...lines].join("\n");
}
