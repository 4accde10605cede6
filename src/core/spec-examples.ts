import type { IntakeConfig } from "./intake";
import type { Question } from "./question";

// The specification's example question sets, written once: the demo's agents, the scripted
// model, the stories and the tests all import them from here. Example data, not part of the
// question model: neither the registry nor the core barrel ships it.

/** The spec's `scope` question, with the three options its picture shows. */
export const scopeQuestion = {
  id: "scope",
  prompt: "How much should I cover?",
  options: [
    { value: "file", label: "This file", hotkey: "a" },
    { value: "module", label: "The whole module", hotkey: "b" },
    { value: "importers", label: "Everything that imports it", hotkey: "c" },
  ],
  defaults: ["module"],
} satisfies Question;

/** The spec's `tests` question: several may be picked. */
export const testsQuestion = {
  id: "tests",
  prompt: "Which tests should I touch?",
  multiple: true,
  options: [
    { value: "unit", label: "Unit" },
    { value: "e2e", label: "End to end" },
  ],
  defaults: ["unit"],
} satisfies Question;

/**
 * The third question the spec's preamble promises ("Three questions before I start") and its
 * picture counts ("Question 1 of 3"), where its written example stops at two.
 */
export const apiQuestion = {
  id: "api",
  prompt: "May I change the public API?",
  options: [
    { value: "keep", label: "Keep it unchanged" },
    { value: "change", label: "Allow breaking changes" },
  ],
  defaults: ["keep"],
} satisfies Question;

/** The spec's preamble. */
export const REFACTORER_PREAMBLE =
  "Three questions before I start. I have pre-picked what I would choose, so confirming is enough.";

/** The spec's written example intake: its preamble, `scope` and `tests`. */
export const specIntake = {
  preamble: REFACTORER_PREAMBLE,
  questions: [scopeQuestion, testsQuestion],
} satisfies IntakeConfig;

/** The demo refactorer's intake, as the spec's picture shows it: scope, tests and the public API. */
export const refactorerIntake = {
  preamble: REFACTORER_PREAMBLE,
  questions: [scopeQuestion, testsQuestion, apiQuestion],
} satisfies IntakeConfig;

/** The spec's `seats` question: a bounded number with a default. */
export const seatsQuestion = {
  id: "seats",
  prompt: "How many seats?",
  description: "Between 1 and 9.",
  input: { type: "number", min: 1, max: 9, required: true, placeholder: "e.g. 2" },
  defaults: ["2"],
} satisfies Question;

/**
 * The demo's `seats` question: the spec's, taking whole numbers only (`input.step` 1), since a
 * table has no half seats. The spec's own example leaves the step out.
 */
export const wholeSeatsQuestion = {
  ...seatsQuestion,
  input: { ...seatsQuestion.input, step: 1 },
} satisfies Question;

/** The spec's `contact` question: a required email, with no honest default. */
export const contactQuestion = {
  id: "contact",
  prompt: "Who should we email?",
  input: { type: "email", required: true },
} satisfies Question;

/** The spec's `notes` question: free text, capped. */
export const notesQuestion = {
  id: "notes",
  prompt: "Anything else?",
  input: { type: "textarea", max: 500 },
} satisfies Question;

/** The spec's typed questions, in its order. */
export const bookingIntake = {
  questions: [seatsQuestion, contactQuestion, notesQuestion],
} satisfies IntakeConfig;

/** The demo booking agent's intake: the spec's typed questions, with whole seats. */
export const demoBookingIntake = {
  questions: [wholeSeatsQuestion, contactQuestion, notesQuestion],
} satisfies IntakeConfig;
