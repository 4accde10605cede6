// The agent of the whole-turn crash suite, hosted through PREPICK_AGENTS_MODULE: one turn with an
// intake, then the model's own questions (`ask`), then a tool that changes something outside the
// run and waits for a person's approval.
import { defineAgent, defineTool } from "prepick/server";
import { z } from "zod";

/** Deploys a service: a side effect, so a person approves it first and it runs at most once. */
export const deploy = defineTool({
  name: "deploy",
  description: "Deploys one service to the chosen environment.",
  inputSchema: z.object({ service: z.enum(["api", "web"]).describe("Which service.") }),
  sideEffects: true,
  needsApproval: true,
  execute: ({ service }) => ({ deployed: service }),
});

export const agents = [
  defineAgent({
    name: "releaser",
    systemPrompt: "You release services.",
    ask: true,
    intake: {
      questions: [
        {
          id: "window",
          prompt: "When may I deploy?",
          options: [
            { value: "now", label: "Now" },
            { value: "tonight", label: "Tonight" },
          ],
          defaults: ["now"],
        },
      ],
    },
    tools: [deploy],
  }),
];
