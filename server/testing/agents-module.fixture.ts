// An agents module for PREPICK_AGENTS_MODULE in tests: what a user points `npm start` at.
import { defineAgent } from "../agents/define-agent";

export const agents = [
  defineAgent({
    name: "greeter",
    systemPrompt: "You greet people.",
    intake: {
      questions: [
        {
          id: "tone",
          prompt: "How formal should I be?",
          options: [
            { value: "formal", label: "Formal" },
            { value: "casual", label: "Casual" },
          ],
          defaults: ["casual"],
        },
      ],
    },
  }),
];
