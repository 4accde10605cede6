import { Agent, Injectable } from "../define-agent";

/** The spec's intake example, written with the `@Agent` decorator exactly as the spec shows it. */
@Agent({
  name: "refactorer",
  systemPrompt: "You refactor TypeScript.",
  intake: {
    preamble:
      "Three questions before I start. I have pre-picked what I would choose, so confirming is enough.",
    questions: [
      {
        id: "scope",
        prompt: "How much should I cover?",
        options: [
          { value: "file", label: "This file", hotkey: "a" },
          { value: "module", label: "The whole module", hotkey: "b" },
        ],
        defaults: ["module"],
      },
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
    ],
  },
})
@Injectable()
export class RefactorerAgent {}
