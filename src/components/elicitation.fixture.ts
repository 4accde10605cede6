import type { ElicitationRequest, Question } from "@/lib/prepick/core/question";
import { bookingIntake, REFACTORER_PREAMBLE, refactorerIntake } from "@/lib/prepick/core/spec-examples";

/** The demo refactorer's intake as the request it posts. */
export const refactorerRequest: ElicitationRequest = {
  source: "intake",
  preamble: REFACTORER_PREAMBLE,
  questions: refactorerIntake.questions,
};

/** The spec's typed questions: a bounded number, a required email and free notes. */
export const bookingRequest: ElicitationRequest = {
  source: "intake",
  preamble: "A few details before I book.",
  questions: bookingIntake.questions,
};

/** One question of each typed input, keyed by its type. */
export const typedQuestions: Record<string, Question> = {
  text: {
    id: "title",
    prompt: "What should the branch be called?",
    description: "Lowercase words joined by dashes.",
    input: { type: "text", pattern: "[a-z]+(-[a-z]+)*", placeholder: "e.g. fix-login" },
    defaults: ["refactor-parser"],
  },
  textarea: {
    id: "notes",
    prompt: "Anything else I should know?",
    input: { type: "textarea", max: 500, placeholder: "Optional" },
  },
  number: {
    id: "seats",
    prompt: "How many seats?",
    description: "Between 1 and 9.",
    input: { type: "number", min: 1, max: 9, required: true, placeholder: "e.g. 2" },
    defaults: ["2"],
  },
  boolean: {
    id: "dryRun",
    prompt: "Should I do a dry run first?",
    input: { type: "boolean" },
    defaults: ["true"],
  },
  date: {
    id: "deadline",
    prompt: "When is it due?",
    input: { type: "date", min: "2026-01-01", max: "2026-12-31" },
    defaults: ["2026-06-30"],
  },
  email: { id: "contact", prompt: "Who should we email?", input: { type: "email", required: true } },
  url: {
    id: "repo",
    prompt: "Which repository?",
    input: { type: "url", placeholder: "https://github.com/owner/name" },
    defaults: ["https://github.com/acme/api"],
  },
  select: {
    id: "region",
    prompt: "Which region should I deploy to?",
    input: { type: "select" },
    options: [
      { value: "eu-west", label: "Europe (Ireland)" },
      { value: "us-east", label: "US East (Virginia)" },
      { value: "ap-south", label: "Asia Pacific (Mumbai)" },
    ],
    defaults: ["eu-west"],
  },
};

/** A question with a long list of options, to show hotkeys past the first few letters. */
export const longListQuestion: Question = {
  id: "language",
  prompt: "Which language should the client be written in?",
  options: [
    "TypeScript",
    "JavaScript",
    "Python",
    "Go",
    "Rust",
    "Java",
    "Kotlin",
    "Swift",
    "C#",
    "Ruby",
    "PHP",
    "Elixir",
    "Dart",
    "Scala",
  ].map((label) => ({ value: label.toLowerCase(), label })),
  defaults: ["typescript"],
};

/** A multiple-choice question that also takes an answer of the person's own. */
export const freeTextQuestion: Question = {
  id: "reviewers",
  prompt: "Who should review it?",
  multiple: true,
  allowFreeText: true,
  options: [
    { value: "alice", label: "Alice", description: "Owns the parser." },
    { value: "bob", label: "Bob" },
  ],
  defaults: ["alice"],
};
