import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { Chat } from "@ai-sdk/react";
import {
  convertToModelMessages,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithToolCalls,
  pipeUIMessageStreamToResponse,
  streamText,
  tool,
  toUIMessageStream,
  type UIMessage,
} from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import { ASK_TOOL_DESCRIPTION, AskToolInputSchema } from "@/lib/prepick/core/ask-tool-schema";
import { settleAnswers } from "@/lib/prepick/core/outcome";
import { scopeQuestion, seatsQuestion } from "@/lib/prepick/core/spec-examples";
import { TranscriptBuilder } from "./transcript-builder";
import type { ElicitationBlock } from "./transcript-types";

const askInput = {
  preamble: "One question first.",
  questions: [scopeQuestion, seatsQuestion],
};

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

function streamOf(parts: LanguageModelV4StreamPart[]) {
  return {
    stream: new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}

// The model is the only mocked edge: first it calls the client-side ask tool, then it reads the result.
function scriptedModel(seen: unknown[]) {
  return new MockLanguageModelV4({
    doStream: async (options) => {
      const toolResult = options.prompt.flatMap((message) =>
        message.role === "tool" ? message.content.filter((part) => part.type === "tool-result") : [],
      )[0];
      if (!toolResult) {
        return streamOf([
          { type: "stream-start", warnings: [] },
          { type: "tool-call", toolCallId: "call-1", toolName: "ask", input: JSON.stringify(askInput) },
          { type: "finish", finishReason: { unified: "tool-calls", raw: "tool_calls" }, usage },
        ]);
      }
      seen.push(toolResult.output);
      return streamOf([
        { type: "stream-start", warnings: [] },
        { type: "text-start", id: "t1" },
        { type: "text-delta", id: "t1", delta: "Covering this file." },
        { type: "text-end", id: "t1" },
        { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
      ]);
    },
  });
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function startRoute(seen: unknown[]): Promise<string> {
  const model = scriptedModel(seen);
  const tools = { ask: tool({ description: ASK_TOOL_DESCRIPTION, inputSchema: AskToolInputSchema }) };
  const server = createServer((request, response) => {
    let raw = "";
    request.on("data", (chunk) => {
      raw += chunk;
    });
    request.on("end", async () => {
      const { messages } = JSON.parse(raw) as { messages: UIMessage[] };
      const result = streamText({
        model,
        tools,
        messages: await convertToModelMessages(messages, { tools }),
      });
      pipeUIMessageStreamToResponse({
        response,
        stream: toUIMessageStream({ stream: result.stream, tools }),
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/chat`;
}

async function until(check: () => boolean, what: string) {
  for (let attempt = 0; attempt < 200 && !check(); attempt++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

describe("a plain AI SDK backend with a client-side ask tool", () => {
  it("shows the same elicitation block and settles it through addToolOutput", async () => {
    const seen: unknown[] = [];
    const api = await startRoute(seen);
    const chat = new Chat({
      transport: new DefaultChatTransport({ api }),
      sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithToolCalls,
    });
    const builder = new TranscriptBuilder(chat, undefined);
    await chat.sendMessage({ text: "Refactor this" });

    const blocks = builder.build(chat.messages).flatMap((message) => message.blocks);
    const block = blocks.find((candidate): candidate is ElicitationBlock => candidate.type === "elicitation");
    expect(block).toBeDefined();
    if (!block) return;
    expect(block.source).toBe("ask");
    expect(block.preamble).toBe("One question first.");
    expect(block.getSnapshot().questions.map((q) => [q.id, q.value])).toEqual([
      ["scope", ["module"]],
      ["seats", ["2"]],
    ]);
    // Hotkeys are assigned by the same parse the server uses.
    expect(block.questions[0]?.options?.map((option) => option.hotkey)).toEqual(["a", "b", "c"]);

    block.setValue("seats", "12");
    await block.submit();
    expect(block.getSnapshot().answer.status).toBe("rejected");
    expect(block.getQuestion("seats")?.error).toBe("Enter a number from 1 to 9.");

    block.setValue("seats", "3");
    block.setValue("scope", "file");
    await block.submit();
    const expected = settleAnswers(block.request.questions, { seats: ["3"], scope: ["file"] });
    expect(block.getSnapshot().answer).toEqual({ status: "settled", outcome: expected, conflict: false });

    await until(
      () => chat.status === "ready" && chat.messages.at(-1)?.parts.some((p) => p.type === "text") === true,
      "the continuation",
    );
    expect(seen).toEqual([{ type: "json", value: expected }]);
    const rebuilt = builder.build(chat.messages);
    builder.flush();
    expect(rebuilt.filter((message) => message.role === "assistant")).toHaveLength(1);
    const again = rebuilt.flatMap((message) => message.blocks).filter((b) => b.type === "elicitation");
    expect(again).toEqual([block]);
    expect(block.getSnapshot().settled?.answers.map((a) => a.labels)).toEqual([["This file"], ["3"]]);
  });
});
