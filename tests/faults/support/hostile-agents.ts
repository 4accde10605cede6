// The agent of the hostile-pattern server test, hosted through PREPICK_AGENTS_MODULE in a server
// process of its own, so a matcher that backtracks would stall that process, not the test's.
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { defineAgent } from "prepick/server";
import { streamOf, ONE_TOKEN_USAGE as usage } from "../../support/model-stream";
import { HOSTILE_PATTERN } from "./hostile-pattern";

/** A model that asks one question whose typed input carries the hostile pattern, then says done. */
function hostileAsker() {
  let calls = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      calls += 1;
      const parts: LanguageModelV4StreamPart[] =
        calls === 1
          ? [
              {
                type: "tool-call",
                toolCallId: "call-hostile",
                toolName: "ask",
                input: JSON.stringify({
                  questions: [
                    {
                      id: "code",
                      prompt: "Which code?",
                      input: { type: "text", pattern: HOSTILE_PATTERN, required: true },
                    },
                  ],
                }),
              },
              { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
            ]
          : [
              { type: "text-start", id: "t" },
              { type: "text-delta", id: "t", delta: "Done." },
              { type: "text-end", id: "t" },
              { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
            ];
      return streamOf(parts);
    },
  });
}

export const agents = [
  defineAgent({ name: "hostile", systemPrompt: "You ask.", ask: true, model: hostileAsker() }),
];
