import { Chat } from "@ai-sdk/react";
import type { DynamicToolUIPart, UIMessage } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import type { Frame } from "@/lib/prepick/core/frames";
import { settleAnswers } from "@/lib/prepick/core/outcome";
import { scopeQuestion } from "@/lib/prepick/core/spec-examples";
import { AgentChatTransport } from "./agent-chat-transport";
import { startFrameServer } from "./frame-server.fixture";

const request = {
  preamble: "One question before I start.",
  source: "intake" as const,
  questions: [scopeQuestion],
};
const outcome = settleAnswers(request.questions, { scope: ["file"] });
const start: Frame = { kind: "run-start", runId: "run-1", threadId: "t", messageId: "msg-a1", agent: "test" };
const parked: Frame[] = [
  start,
  { kind: "elicitation", id: "intake-run-1", request },
  { kind: "run-parked", waitingFor: ["intake-run-1"] },
];
const continuation: Frame[] = [
  start,
  { kind: "tool-output", id: "intake-run-1", output: outcome },
  { kind: "step-start", step: 0 },
  { kind: "text-start", id: "t1" },
  { kind: "text-delta", id: "t1", delta: "Covering this file." },
  { kind: "text-end", id: "t1" },
  { kind: "step-finish", step: 0 },
  { kind: "run-finish", status: "completed" },
];

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function askParts(message: UIMessage | undefined): DynamicToolUIPart[] {
  return (message?.parts ?? []).filter(
    (part): part is DynamicToolUIPart => part.type === "dynamic-tool" && part.toolName === "ask",
  );
}

describe("AgentChatTransport over a loopback SSE server", () => {
  it("folds an elicitation and its output on the same response into one ask part", async () => {
    const server = await startFrameServer({ start: [...parked.slice(0, 2), ...continuation.slice(1)] });
    closers.push(server.close);
    const chat = new Chat({ id: "thread-1", transport: new AgentChatTransport({ api: server.url }) });
    await chat.sendMessage({ text: "hello" });
    expect(chat.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    const assistant = chat.messages[1];
    expect(assistant?.id).toBe("msg-a1");
    const parts = askParts(assistant);
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatchObject({
      toolCallId: "intake-run-1",
      state: "output-available",
      providerExecuted: true,
      input: request,
      output: outcome,
    });
    expect(server.requests[0]?.body).toMatchObject({ threadId: "thread-1", message: { role: "user" } });
  });

  it("continues the same assistant message after an answer, with no duplicate and no lost part", async () => {
    const server = await startFrameServer({ start: parked, after: { "intake-run-1": continuation } });
    closers.push(server.close);
    const transport = new AgentChatTransport({ api: server.url });
    const chat = new Chat({ id: "thread-2", transport });
    await chat.sendMessage({ text: "hello" });
    expect(askParts(chat.messages[1])[0]?.state).toBe("input-available");
    expect(chat.status).toBe("ready");

    const answered = await transport.client.answer("intake-run-1", { scope: ["file"] });
    expect(answered.ok).toBe(true);
    await chat.resumeStream();

    expect(chat.messages.map((m) => `${m.role}:${m.id}`)).toEqual([
      `user:${chat.messages[0]?.id}`,
      "assistant:msg-a1",
    ]);
    const parts = askParts(chat.messages[1]);
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatchObject({ state: "output-available", output: outcome });
    const text = chat.messages[1]?.parts.filter((part) => part.type === "text").map((part) => part.text);
    expect(text).toEqual(["Covering this file."]);
    const resumed = server.requests.find((r) => r.path === "/agent/runs/run-1/stream");
    expect(resumed).toBeDefined();
    expect(transport.run("thread-2")?.fold.status).toBe("completed");
  });

  it("drops what a model call streamed unstored when it reconnects, and shows the call made again once", async () => {
    const step = (text: string): Frame[] => [
      { kind: "step-start", step: 0 },
      { kind: "text-start", id: "0-t" },
      { kind: "text-delta", id: "0-t", delta: text },
    ];
    // The process died mid-call after streaming half a reply; the one that took over stored another.
    const server = await startFrameServer({
      start: [start],
      crash: {
        streamed: step("Covering the whole"),
        rerun: [
          ...step("Covering this file."),
          { kind: "text-end", id: "0-t" },
          { kind: "step-finish", step: 0 },
          { kind: "run-finish", status: "completed" },
        ],
      },
    });
    closers.push(server.close);
    const transport = new AgentChatTransport({ api: server.url });
    const chat = new Chat({ id: "thread-crash", transport });
    await chat.sendMessage({ text: "hello" });
    expect(transport.run("thread-crash")?.frames.map(({ seq, unstored }) => [seq, unstored])).toEqual([
      [1, undefined],
      [2, true],
      [3, true],
      [4, true],
    ]);
    await chat.resumeStream();
    const assistant = chat.messages.at(-1);
    const texts = (assistant?.parts ?? []).filter((part) => part.type === "text").map((part) => part.text);
    expect(texts).toEqual(["Covering this file."]);
    expect(server.requests.at(-1)?.path).toBe("/agent/runs/run-1/stream");
    expect(transport.run("thread-crash")?.frames.map(({ seq }) => seq)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(transport.run("thread-crash")?.frames.some(({ unstored }) => unstored)).toBe(false);
  });

  it("returns null from reconnectToStream when a parked run has nothing new", async () => {
    const server = await startFrameServer({ start: parked });
    closers.push(server.close);
    const transport = new AgentChatTransport({ api: server.url });
    const chat = new Chat({ id: "thread-3", transport });
    await chat.sendMessage({ text: "hello" });
    expect(await transport.reconnectToStream({ chatId: "thread-3" })).toBeNull();
    await chat.resumeStream();
    expect(askParts(chat.messages[1])[0]?.state).toBe("input-available");
    expect(chat.messages).toHaveLength(2);
  });

  it("hydrates a reloaded page with the same fold: the pending question is still pending", async () => {
    const server = await startFrameServer({ start: parked, after: { "intake-run-1": continuation } });
    closers.push(server.close);
    await new Chat({ id: "thread-4", transport: new AgentChatTransport({ api: server.url }) }).sendMessage({
      text: "hello",
    });
    const reloaded = new AgentChatTransport({ api: server.url });
    const messages = await reloaded.loadThread("thread-4");
    expect(askParts(messages[1])[0]).toMatchObject({ state: "input-available", input: request });
    const chat = new Chat({ id: "thread-4", transport: reloaded, messages });
    await reloaded.client.answer("intake-run-1", {});
    await chat.resumeStream();
    expect(chat.messages).toHaveLength(2);
    expect(askParts(chat.messages[1])).toHaveLength(1);
    expect(askParts(chat.messages[1])[0]?.state).toBe("output-available");
  });
});
