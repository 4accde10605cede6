import {
  type ElicitationOutcome,
  ElicitationOutcomeSchema,
  type Question,
} from "@/lib/prepick/core/question";
import { formatAnswer } from "./format-answer";
import { englishMessages, type PrepickMessages } from "./prepick-messages";
import type { ElicitationSettled, SettledAnswer } from "./transcript-types";

/** Reads a stored output as an outcome, or undefined when it is not one (a denied or cancelled call). */
export function readOutcome(output: unknown): ElicitationOutcome | undefined {
  const parsed = ElicitationOutcomeSchema.safeParse(output);
  return parsed.success ? parsed.data : undefined;
}

function kindOf(skipped: boolean, defaulted: boolean, values: readonly string[]): SettledAnswer["kind"] {
  // A skip leaves every question to the agent: what stands is its pick, or nothing for it to decide on.
  if (skipped) return values.length > 0 ? "pre-picked" : "left-to-agent";
  if (defaulted) return "pre-picked";
  return values.length > 0 ? "answered" : "no-answer";
}

/**
 * The settled view of an outcome: each answer as the person reads it (labels, numbers and dates
 * for the locale), whose answer stands, and whether the set was skipped.
 */
export function describeOutcome(
  questions: readonly Question[],
  outcome: ElicitationOutcome,
  messages: PrepickMessages = englishMessages,
): ElicitationSettled {
  const defaulted = new Set(outcome.defaulted);
  return {
    outcome,
    skipped: outcome.skipped,
    answers: questions.map((question) => {
      const values = outcome.answers[question.id] ?? [];
      return {
        questionId: question.id,
        prompt: question.prompt,
        values,
        labels: values.map((value) => formatAnswer(question, value, messages)),
        defaulted: defaulted.has(question.id),
        kind: kindOf(outcome.skipped, defaulted.has(question.id), values),
      };
    }),
  };
}
