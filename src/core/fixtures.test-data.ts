import type { Question } from "./question";

/** The spec's `scope` question. */
export const scopeQuestion: Question = {
  id: "scope",
  prompt: "How much should I cover?",
  options: [
    { value: "file", label: "This file", hotkey: "a" },
    { value: "module", label: "The whole module", hotkey: "b" },
  ],
  defaults: ["module"],
};

/** The spec's configured intake: scope and tests, with their options and defaults. */
export const specIntakeQuestions: Question[] = [
  scopeQuestion,
  {
    id: "tests",
    prompt: "Which tests should I touch?",
    multiple: true,
    options: [
      { value: "unit", label: "Unit" },
      { value: "e2e", label: "End to end" },
    ],
    defaults: ["unit"],
  },
];

/** The spec's `seats` question. */
export const seatsQuestion: Question = {
  id: "seats",
  prompt: "How many seats?",
  description: "Between 1 and 9.",
  input: { type: "number", min: 1, max: 9, required: true, placeholder: "e.g. 2" },
  defaults: ["2"],
};

/** The spec's `notes` question. */
export const notesQuestion: Question = {
  id: "notes",
  prompt: "Anything else?",
  input: { type: "textarea", max: 500 },
};

/** The spec's typed questions: seats, contact and notes. */
export const specTypedQuestions: Question[] = [
  seatsQuestion,
  { id: "contact", prompt: "Who should we email?", input: { type: "email", required: true } },
  notesQuestion,
];

/** Builds a typed question for tests. */
export function typed(input: NonNullable<Question["input"]>, extra: Partial<Question> = {}): Question {
  return { id: "q", prompt: "Q?", input, ...extra };
}
