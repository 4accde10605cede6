import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import type { ElicitationFrame } from "prepick/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrepickServer } from "../../server/server";
import { call, chat, frameOf, startServer } from "../../server/testing/harness";
import { streamOf, ONE_TOKEN_USAGE as usage } from "../support/model-stream";
import { HOSTILE_PATTERN, HOSTILE_VALUE, MATCHING_VALUE } from "./support/hostile-pattern";

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

let server: PrepickServer | undefined;

beforeAll(async () => {
  server = await startServer({
    agents: [{ name: "hostile", systemPrompt: "You ask.", ask: true, model: hostileAsker() }],
  });
}, 60_000);

afterAll(async () => {
  await server?.close();
});

describe("a model-authored pattern built for catastrophic backtracking", { timeout: 60_000 }, () => {
  it("is matched against a long answer by the answer endpoint, which returns", async () => {
    if (!server) throw new Error("the server did not start");
    const turn = await chat(server, "ada", "Ask me for a code");
    const asked = frameOf(turn.frames, "elicitation") as ElicitationFrame | undefined;
    expect(asked?.request.questions[0]?.input?.pattern).toBe(HOSTILE_PATTERN);
    const toolCallId = asked?.id ?? "";

    const refused = await call(server, "POST", "/agent/tool-call/answer", "ada", {
      toolCallId,
      answers: { code: [HOSTILE_VALUE] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.issues).toEqual([
      expect.objectContaining({ questionId: "code", message: expect.stringContaining('answers["code"]') }),
    ]);

    const accepted = await call(server, "POST", "/agent/tool-call/answer", "ada", {
      toolCallId,
      answers: { code: [MATCHING_VALUE] },
    });
    expect(accepted.status, JSON.stringify(accepted.body).slice(0, 300)).toBe(200);
    expect((accepted.body.output as { answers: Record<string, string[]> }).answers.code).toEqual([
      MATCHING_VALUE,
    ]);
  });
});
