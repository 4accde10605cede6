import type { AskToolInput } from "prepick/core";
import { scopeQuestion, testsQuestion, wholeSeatsQuestion } from "../../src/core/spec-examples";

/** A kind of request the scripted model finds ambiguous, and the questions it asks about it. */
export interface AmbiguousTopic {
  /** Names the topic in docs and tests. */
  name: string;
  /** Whether a request is of this kind. */
  matches(request: string): boolean;
  /** The questions asked, defaults pre-picked. */
  questions: AskToolInput["questions"];
}

/** Whether a request holds a word that begins with `stem`, in any case: the pattern made once. */
function startsWord(stem: string): (request: string) => boolean {
  const pattern = new RegExp(`\\b${stem}`, "i");
  return (request) => pattern.test(request);
}

/** A question as a model writes it: the hotkeys are the loop's to assign, so it leaves them out. */
function asAsked(question: typeof scopeQuestion): AskToolInput["questions"][number] {
  return { ...question, options: question.options.map(({ hotkey: _hotkey, ...option }) => option) };
}

/**
 * The ambiguous kinds of request, in the order they are tried: a request that mentions
 * refactoring, planning or booking, or any request that ends with a question mark.
 */
export const AMBIGUOUS_TOPICS: readonly AmbiguousTopic[] = [
  {
    name: "refactor",
    matches: startsWord("refactor"),
    questions: [asAsked(scopeQuestion), testsQuestion],
  },
  {
    name: "plan",
    matches: startsWord("plan"),
    questions: [
      {
        id: "horizon",
        prompt: "How far ahead should the plan go?",
        // A horizon the options do not name ("until the beta") is a fair answer too.
        allowFreeText: true,
        options: [
          { value: "day", label: "Today" },
          { value: "week", label: "This week" },
          { value: "month", label: "This month" },
        ],
        defaults: ["week"],
      },
      {
        id: "detail",
        prompt: "How detailed should it be?",
        options: [
          { value: "outline", label: "An outline" },
          { value: "steps", label: "Step by step" },
        ],
        defaults: ["outline"],
      },
    ],
  },
  {
    name: "book",
    matches: startsWord("book"),
    questions: [
      wholeSeatsQuestion,
      {
        id: "class",
        prompt: "Which class?",
        options: [
          { value: "economy", label: "Economy" },
          { value: "business", label: "Business" },
        ],
        defaults: ["economy"],
      },
      { id: "date", prompt: "On which day?", input: { type: "date", required: true } },
    ],
  },
  {
    name: "question",
    matches: (request) => request.trim().endsWith("?"),
    questions: [
      {
        id: "length",
        prompt: "How long should my answer be?",
        options: [
          { value: "short", label: "A few sentences" },
          { value: "long", label: "A detailed walk-through" },
        ],
        defaults: ["short"],
      },
    ],
  },
];

/** The topic a request belongs to, or undefined when it is clear enough to just answer. */
export function ambiguousTopic(request: string): AmbiguousTopic | undefined {
  return AMBIGUOUS_TOPICS.find((topic) => topic.matches(request));
}

const COUNT_WORDS = ["No", "One", "Two", "Three", "Four", "Five"];

/** The well-formed `ask` input for a request: its topic's questions, or one generic question. */
export function askInputFor(request: string): AskToolInput {
  const questions = ambiguousTopic(request)?.questions ?? [
    {
      id: "approach",
      prompt: "How should I go about it?",
      options: [
        { value: "minimal", label: "The smallest change that works" },
        { value: "thorough", label: "A thorough job" },
      ],
      defaults: ["minimal"],
    },
  ];
  const count = COUNT_WORDS[questions.length] ?? String(questions.length);
  const noun = questions.length === 1 ? "question" : "questions";
  return {
    preamble: `${count} ${noun} before I start. I have pre-picked what I would choose, so confirming is enough.`,
    questions,
  };
}

/**
 * An `ask` input whose choice question has nothing pre-picked, so the loop refuses it and the
 * model gets the issues back as a tool failure.
 */
export function malformedAskInput(): unknown {
  return {
    questions: [
      {
        id: "scope",
        prompt: "How much should I cover?",
        options: [
          { value: "file", label: "This file" },
          { value: "module", label: "The whole module" },
        ],
      },
    ],
  };
}
