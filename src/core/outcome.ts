import { type ResolvedAnswers, resolveAnswers } from "./answers";
import type { Answers, ElicitationOutcome, Question } from "./question";

/** The first line of a summary when the person answered. */
export const ANSWERED_HEADING = "The user answered:";

/** The first line of a summary when the person skipped. */
export const SKIPPED_HEADING =
  "The user skipped the questions and left the choices to you. Your pre-picked answers stand:";

/** How one value reads to a person and to the model: an option's label, Yes/No, or as typed. */
export function describeValue(question: Question, value: string): string {
  const option = question.options?.find((candidate) => candidate.value === value);
  if (option) return option.label;
  if (question.input?.type === "boolean") return value === "true" ? "Yes" : "No";
  return value;
}

/** One summary line: `prompt → labels`, with multi-line text indented under it. */
export function summaryLine(question: Question, values: readonly string[]): string {
  const labels = values.map((value) => describeValue(question, value)).join(", ");
  return `${question.prompt} → ${labels === "" ? "(no answer)" : labels.replaceAll("\n", "\n    ")}`;
}

/**
 * What the model reads back: `The user answered:` (or the skip line) and then one line per
 * question, `prompt → labels`. Labels, not opaque values: `{"scope":["b"]}` tells a model nothing.
 */
export function summarize(questions: readonly Question[], answers: Answers, skipped: boolean): string {
  const lines = questions.map((question) => summaryLine(question, answers[question.id] ?? []));
  return [skipped ? SKIPPED_HEADING : ANSWERED_HEADING, ...lines].join("\n");
}

function outcome(questions: readonly Question[], resolved: ResolvedAnswers, skipped: boolean) {
  return {
    answers: resolved.answers,
    skipped,
    defaulted: resolved.defaulted,
    summary: summarize(questions, resolved.answers, skipped),
  } satisfies ElicitationOutcome;
}

/**
 * Settles a question set with a person's answers: omitted questions take their own defaults,
 * unusable values are dropped, and the summary is written. Validate first to refuse bad answers.
 */
export function settleAnswers(questions: readonly Question[], answers: Answers = {}): ElicitationOutcome {
  return outcome(questions, resolveAnswers(questions, answers), false);
}

/** Settles a skipped question set: the agent proceeds on its own picks, every default standing. */
export function settleSkipped(questions: readonly Question[]): ElicitationOutcome {
  return outcome(questions, resolveAnswers(questions, {}), true);
}

/**
 * Applies the answer rules again to an outcome a settled row holds, as the loop does before the
 * model reads it, dropping anything it cannot use: a skip (`skipped`, else the outcome's own
 * flag) stands on the defaults; otherwise
 * unknown question ids, values that are not arrays of strings, refused values and extra values of
 * a single-value question go, a question left with nothing usable falls back to its defaults, the
 * questions the person left out stay `defaulted`, and the summary is written from what stands.
 * An outcome `settleAnswers` or `settleSkipped` made comes back unchanged.
 */
export function settleRecorded(
  questions: readonly Question[],
  recorded: unknown,
  skipped?: boolean,
): ElicitationOutcome {
  const record =
    typeof recorded === "object" && recorded !== null ? (recorded as Record<string, unknown>) : {};
  if (skipped ?? record.skipped === true) return settleSkipped(questions);
  const leftOut = new Set(Array.isArray(record.defaulted) ? record.defaulted : []);
  const given = typeof record.answers === "object" && record.answers !== null ? record.answers : {};
  const answers: Answers = {};
  for (const [questionId, values] of Object.entries(given)) {
    if (leftOut.has(questionId) || !Array.isArray(values)) continue;
    const strings = values.filter((value): value is string => typeof value === "string");
    // Values that were all unusable leave the question to its defaults, as a refused value does.
    if (strings.length > 0 || values.length === 0) answers[questionId] = strings;
  }
  return settleAnswers(questions, answers);
}
