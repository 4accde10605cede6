import type { Question } from "./question";

/** Builds a typed question for tests. */
export function typed(input: NonNullable<Question["input"]>, extra: Partial<Question> = {}): Question {
  return { id: "q", prompt: "Q?", input, ...extra };
}
