import { type BaseEvent, EventType, type Interrupt, type Message } from "@ag-ui/client";
import { Chat } from "@ai-sdk/react";
import type { DynamicToolUIPart, UIMessage } from "ai";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Frame } from "@/lib/prepick/core/frames";
import { settleAnswers } from "@/lib/prepick/core/outcome";
import { specIntake } from "@/lib/prepick/core/spec-examples";
import { mcpElicitationToRequest } from "@/lib/prepick/transport/adapters/mcp-elicitation";
import { AgentChatTransport } from "../agent-chat-transport";
import { startFrameServer } from "../frame-server.fixture";
import { readRunFailure } from "../run-failure";
import { AgUiChatTransport } from "./ag-ui-chat-transport";
import { type AgUiResponder, startAgUiServer } from "./ag-ui-server.fixture";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const close of closers.splice(0)) await close();
});

/** `@ag-ui/client` logs every failed run to the console; the chat's error is what these tests read. */
function quietClientErrors() {
  vi.spyOn(console, "error").mockImplementation(() => {});
}

async function serve(respond: AgUiResponder) {
  const server = await startAgUiServer(respond);
  closers.push(server.close);
  return server;
}

const run = (input: { threadId: string; runId: string }) => ({
  started: { type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId } as BaseEvent,
  finished: (outcome?: unknown) =>
    ({
      type: EventType.RUN_FINISHED,
      threadId: input.threadId,
      runId: input.runId,
      ...(outcome ? { outcome } : {}),
    }) as BaseEvent,
});

function text(messageId: string, delta: string): BaseEvent[] {
  return [
    { type: EventType.TEXT_MESSAGE_START, messageId, role: "assistant" },
    { type: EventType.TEXT_MESSAGE_CONTENT, messageId, delta },
    { type: EventType.TEXT_MESSAGE_END, messageId },
  ] as BaseEvent[];
}

function reasoning(messageId: string, delta: string): BaseEvent[] {
  return [
    { type: EventType.REASONING_START, messageId },
    { type: EventType.REASONING_MESSAGE_START, messageId, role: "reasoning" },
    { type: EventType.REASONING_MESSAGE_CONTENT, messageId, delta },
    { type: EventType.REASONING_MESSAGE_END, messageId },
    { type: EventType.REASONING_END, messageId },
  ] as BaseEvent[];
}

function toolCall(toolCallId: string, toolCallName: string, args: string, result?: string): BaseEvent[] {
  return [
    { type: EventType.TOOL_CALL_START, toolCallId, toolCallName },
    { type: EventType.TOOL_CALL_ARGS, toolCallId, delta: args.slice(0, 5) },
    { type: EventType.TOOL_CALL_ARGS, toolCallId, delta: args.slice(5) },
    { type: EventType.TOOL_CALL_END, toolCallId },
    ...(result === undefined
      ? []
      : [
          {
            type: EventType.TOOL_CALL_RESULT,
            messageId: `result-${toolCallId}`,
            toolCallId,
            content: result,
          },
        ]),
  ] as BaseEvent[];
}

/** The MCP-style schema a LangGraph or Mastra agent sends as `responseSchema`. */
const scopeSchema = {
  type: "object",
  properties: {
    scope: {
      type: "string",
      title: "How much should I cover?",
      oneOf: [
        { const: "file", title: "This file" },
        { const: "module", title: "The whole module" },
      ],
      default: "module",
    },
    seats: { type: "integer", title: "How many seats?", minimum: 1, maximum: 9, default: 2 },
  },
  required: ["seats"],
};
const scopeInterrupt: Interrupt = {
  id: "int-scope",
  reason: "input_required",
  message: "Two questions before I start.",
  responseSchema: scopeSchema,
};

function askParts(message: UIMessage | undefined): DynamicToolUIPart[] {
  return (message?.parts ?? []).filter(
    (part): part is DynamicToolUIPart => part.type === "dynamic-tool" && part.toolName === "ask",
  );
}

/** A message's parts without step boundaries, which AG-UI does not carry, or per-run provider details. */
function comparable(message: UIMessage | undefined) {
  return (message?.parts ?? [])
    .filter((part) => part.type !== "step-start")
    .map((part) => {
      const { callProviderMetadata: _metadata, ...rest } = part as Record<string, unknown>;
      return rest;
    });
}

function memoryStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
  };
}

describe("AgUiChatTransport over a real AG-UI SSE endpoint (HttpAgent's wire)", () => {
  it("makes the same parts as AgentChatTransport does for the same reply", async () => {
    const frames: Frame[] = [
      { kind: "run-start", runId: "run-1", threadId: "t", messageId: "m1", agent: "test" },
      { kind: "reasoning-start", id: "r1" },
      { kind: "reasoning-delta", id: "r1", delta: "The parser is small." },
      { kind: "reasoning-end", id: "r1" },
      { kind: "text-start", id: "t1" },
      { kind: "text-delta", id: "t1", delta: "Reading it first." },
      { kind: "text-end", id: "t1" },
      { kind: "tool-call", id: "call-1", toolName: "read_file", input: { path: "parser.ts" } },
      { kind: "tool-output", id: "call-1", output: { lines: 120 } },
      { kind: "run-finish", status: "completed" },
    ];
    const frameServer = await startFrameServer({ start: frames });
    closers.push(frameServer.close);
    const ours = new Chat({ id: "same-1", transport: new AgentChatTransport({ api: frameServer.url }) });
    await ours.sendMessage({ text: "Refactor the parser" });

    const server = await serve((input) => {
      const { started, finished } = run(input);
      return [
        started,
        ...reasoning("r1", "The parser is small."),
        ...text("t1", "Reading it first."),
        ...toolCall("call-1", "read_file", '{"path":"parser.ts"}', '{"lines":120}'),
        finished(),
      ];
    });
    const chat = new Chat({ id: "same-1", transport: new AgUiChatTransport({ url: server.url }) });
    await chat.sendMessage({ text: "Refactor the parser" });

    expect(chat.status).toBe("ready");
    expect(chat.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(comparable(chat.messages[1])).toEqual(comparable(ours.messages[1]));
    expect(server.inputs[0]).toMatchObject({
      threadId: "same-1",
      messages: [{ role: "user", content: "Refactor the parser" }],
    });
    await server.verified();
  });

  it("asks one question set for an interrupt's responseSchema, and resumes the same message with the answers", async () => {
    const server = await serve((input, index) => {
      const { started, finished } = run(input);
      if (index === 0) {
        return [
          started,
          ...text("t1", "I need to know the scope."),
          finished({ type: "interrupt", interrupts: [scopeInterrupt] }),
        ];
      }
      return [started, ...text("t2", "Covering this file for 3 seats."), finished({ type: "success" })];
    });
    const transport = new AgUiChatTransport({ url: server.url });
    const chat = new Chat({ id: "ask-1", transport });
    await chat.sendMessage({ text: "Book it" });

    const expected = mcpElicitationToRequest({
      message: "Two questions before I start.",
      requestedSchema: scopeSchema as never,
    });
    expect(expected.success).toBe(true);
    const [ask] = askParts(chat.messages[1]);
    expect(ask).toMatchObject({
      toolCallId: "int-scope",
      state: "input-available",
      providerExecuted: true,
      input: expected.success ? expected.request : undefined,
    });
    expect(await transport.reconnectToStream({ chatId: "ask-1" })).toBeNull();

    const assistantId = chat.messages[1]?.id;
    const answered = await transport.client.answer("int-scope", { scope: ["file"], seats: ["3"] });
    expect(answered).toMatchObject({ ok: true, result: { output: { answers: { scope: ["file"] } } } });
    await chat.resumeStream();

    expect(chat.messages.map((message) => `${message.role}:${message.id}`)).toEqual([
      `user:${chat.messages[0]?.id}`,
      `assistant:${assistantId}`,
    ]);
    const parts = askParts(chat.messages[1]);
    expect(parts).toHaveLength(1);
    expect(parts[0]).toMatchObject({
      state: "output-available",
      output: settleAnswers(
        parts[0]?.input ? (parts[0].input as never as { questions: never }).questions : [],
        {
          scope: ["file"],
          seats: ["3"],
        },
      ),
    });
    const texts = chat.messages[1]?.parts.flatMap((part) => (part.type === "text" ? [part.text] : []));
    expect(texts).toEqual(["I need to know the scope.", "Covering this file for 3 seats."]);
    // The answers travel in JSON types, as MCP's `content` does, with the conversation so far.
    expect(server.inputs[1]?.resume).toEqual([
      { interruptId: "int-scope", status: "resolved", payload: { scope: "file", seats: 3 } },
    ]);
    expect(server.inputs[1]?.messages.map((message: Message) => message.role)).toEqual(["user", "assistant"]);
    expect(server.inputs[1]?.threadId).toBe("ask-1");
    await server.verified();
  });

  it("resumes a skipped question set as cancelled", async () => {
    const server = await serve((input, index) => {
      const { started, finished } = run(input);
      return index === 0
        ? [started, finished({ type: "interrupt", interrupts: [scopeInterrupt] })]
        : [started, ...text("t2", "Going with my own picks."), finished()];
    });
    const transport = new AgUiChatTransport({ url: server.url });
    const chat = new Chat({ id: "skip-1", transport });
    await chat.sendMessage({ text: "Book it" });
    const skipped = await transport.client.skip("int-scope");
    expect(skipped).toMatchObject({ ok: true, result: { output: { skipped: true } } });
    await chat.resumeStream();
    expect(server.inputs[1]?.resume).toEqual([{ interruptId: "int-scope", status: "cancelled" }]);
    expect(askParts(chat.messages[1])[0]).toMatchObject({
      state: "output-available",
      output: { skipped: true },
    });
    await server.verified();
  });

  it("refuses answers the questions refuse, naming the question, and sends nothing", async () => {
    const server = await serve((input) => {
      const { started, finished } = run(input);
      return [started, finished({ type: "interrupt", interrupts: [scopeInterrupt] })];
    });
    const transport = new AgUiChatTransport({ url: server.url });
    const chat = new Chat({ id: "invalid-1", transport });
    await chat.sendMessage({ text: "Book it" });
    const refused = await transport.client.answer("int-scope", { seats: ["12"] });
    expect(refused).toMatchObject({
      ok: false,
      failure: {
        kind: "invalid",
        issues: [{ questionId: "seats", message: 'answers["seats"] must be at most 9' }],
      },
    });
    expect(await transport.reconnectToStream({ chatId: "invalid-1" })).toBeNull();
    expect(server.inputs).toHaveLength(1);
  });

  it("shows an interrupt without a readable schema as an approval of its tool call", async () => {
    const server = await serve((input, index) => {
      const { started, finished } = run(input);
      if (index === 0) {
        const approval: Interrupt = {
          id: "int-purge",
          reason: "tool_approval",
          message: "Purge the cache?",
          toolCallId: "call-purge",
          metadata: { prepick: { description: "Empties one of the site's caches." } },
        };
        return [
          started,
          ...toolCall("call-purge", "purge_cache", '{"region":"eu"}'),
          finished({ type: "interrupt", interrupts: [approval] }),
        ];
      }
      return [
        started,
        { type: EventType.TOOL_CALL_RESULT, messageId: "r", toolCallId: "call-purge", content: '"purged"' },
        ...text("t2", "Purged."),
        finished(),
      ] as BaseEvent[];
    });
    const transport = new AgUiChatTransport({ url: server.url });
    const chat = new Chat({ id: "approve-1", transport });
    await chat.sendMessage({ text: "Purge it" });
    const tool = chat.messages[1]?.parts.find((part) => part.type === "tool-purge_cache");
    expect(tool).toMatchObject({
      state: "approval-requested",
      input: { region: "eu" },
      approval: { id: "int-purge" },
      // The tool's description a Prepick producer carries, on the part as the own wire puts it.
      toolMetadata: { description: "Empties one of the site's caches." },
    });

    expect(await transport.client.approve("call-purge")).toMatchObject({ ok: true });
    expect(await transport.client.approve("call-purge")).toMatchObject({
      ok: false,
      failure: { kind: "conflict" },
    });
    await chat.resumeStream();
    expect(server.inputs[1]?.resume).toEqual([
      { interruptId: "int-purge", status: "resolved", payload: { approved: true } },
    ]);
    const settled = chat.messages[1]?.parts.find((part) => part.type === "tool-purge_cache");
    expect(settled).toMatchObject({
      state: "output-available",
      output: "purged",
      approval: { approved: true },
    });
    await server.verified();
  });

  it("resumes a rejected approval as cancelled and shows the call denied", async () => {
    const server = await serve((input, index) => {
      const { started, finished } = run(input);
      if (index > 0) return [started, ...text("t2", "Left the cache alone."), finished()];
      const approval: Interrupt = {
        id: "int-deploy",
        reason: "confirm_deploy",
        message: "Deploy to production?",
      };
      return [started, finished({ type: "interrupt", interrupts: [approval] })];
    });
    const transport = new AgUiChatTransport({ url: server.url });
    const chat = new Chat({ id: "reject-1", transport });
    await chat.sendMessage({ text: "Deploy" });
    // No tool call to attach to: the approval gets a part of its own, named after the reason.
    const own = chat.messages[1]?.parts.find((part) => part.type === "dynamic-tool");
    expect(own).toMatchObject({
      toolName: "confirm_deploy",
      toolCallId: "int-deploy",
      state: "approval-requested",
      input: { message: "Deploy to production?" },
    });
    await transport.client.reject("int-deploy", "not today");
    await chat.resumeStream();
    // A cancelled entry has no payload: the reason travels in its metadata, for agents that read it.
    expect(server.inputs[1]?.resume).toEqual([
      { interruptId: "int-deploy", status: "cancelled", metadata: { prepick: { reason: "not today" } } },
    ]);
    expect(chat.messages[1]?.parts.find((part) => part.type === "dynamic-tool")).toMatchObject({
      state: "output-denied",
      approval: { approved: false, reason: "not today" },
    });
  });

  it("shows when an interrupt expires, refuses an answer after it, and lets a skip move the thread on", async () => {
    let now = new Date("2026-09-30T12:00:00Z");
    const expiring: Interrupt = { ...scopeInterrupt, expiresAt: "2026-09-30T12:30:00Z" };
    const server = await serve((input, index) => {
      const { started, finished } = run(input);
      return index === 0
        ? [started, finished({ type: "interrupt", interrupts: [expiring] })]
        : [started, ...text("t2", "Proceeding on my own picks."), finished()];
    });
    const transport = new AgUiChatTransport({ url: server.url, now: () => now });
    const chat = new Chat({ id: "expiry-1", transport });
    await chat.sendMessage({ text: "Book it" });
    // The deadline rides as the part's metadata, as on the Prepick wire, for the card to say in
    // the page's language; no English sentence is written into the agent's preamble.
    expect(askParts(chat.messages[1])[0]).toMatchObject({
      input: { preamble: "Two questions before I start." },
      toolMetadata: { expiresAt: "2026-09-30T12:30:00.000Z" },
    });

    now = new Date("2026-09-30T12:30:00Z");
    const late = await transport.client.answer("int-scope", {});
    expect(late).toMatchObject({ ok: false, failure: { kind: "invalid", issues: [] } });
    expect(late.ok ? "" : late.failure.error).toMatch(/expired at .* and can no longer be answered; skip it/);
    expect(await transport.reconnectToStream({ chatId: "expiry-1" })).toBeNull();

    expect(await transport.client.skip("int-scope")).toMatchObject({ ok: true });
    await chat.resumeStream();
    expect(server.inputs[1]?.resume).toEqual([{ interruptId: "int-scope", status: "cancelled" }]);
  });

  it("prefers the Prepick question set an interrupt carries in metadata over its responseSchema", async () => {
    const request = {
      preamble: "Two questions before I start.",
      source: "intake" as const,
      questions: specIntake.questions,
    };
    const intake: Interrupt = {
      id: "intake-run-1",
      reason: "prepick:intake",
      message: request.preamble,
      responseSchema: {
        type: "object",
        properties: { tests: { type: "array", items: { enum: ["unit", "e2e"] } } },
      },
      metadata: { prepick: { request } },
    };
    const server = await serve((input, index) => {
      const { started, finished } = run(input);
      return index === 0
        ? [started, finished({ type: "interrupt", interrupts: [intake] })]
        : [started, finished()];
    });
    const transport = new AgUiChatTransport({ url: server.url });
    const chat = new Chat({ id: "metadata-1", transport });
    await chat.sendMessage({ text: "Refactor" });
    expect(askParts(chat.messages[1])[0]).toMatchObject({ toolCallId: "intake-run-1", input: request });
    await transport.client.answer("intake-run-1", { tests: ["unit", "e2e"] });
    await chat.resumeStream();
    expect(server.inputs[1]?.resume).toEqual([
      {
        interruptId: "intake-run-1",
        status: "resolved",
        payload: { scope: "module", tests: ["unit", "e2e"] },
      },
    ]);
  });

  it("asks every interrupt of a set in one question set and resumes them all in the next run", async () => {
    const second: Interrupt = {
      id: "int-contact",
      reason: "input_required",
      message: "And who should I email?",
      responseSchema: {
        type: "object",
        properties: { seats: { type: "string", format: "email", title: "Who should we email?" } },
      },
    };
    const server = await serve((input, index) => {
      const { started, finished } = run(input);
      return index === 0
        ? [started, finished({ type: "interrupt", interrupts: [scopeInterrupt, second] })]
        : [started, finished()];
    });
    const transport = new AgUiChatTransport({ url: server.url });
    const chat = new Chat({ id: "set-1", transport });
    await chat.sendMessage({ text: "Book it" });
    const parts = askParts(chat.messages[1]);
    expect(parts).toHaveLength(1);
    const input = parts[0]?.input as { preamble: string; questions: { id: string }[] };
    expect(input.questions.map((question) => question.id)).toEqual(["1.scope", "1.seats", "2.seats"]);
    expect(input.preamble).toBe("Two questions before I start.\n\nAnd who should I email?");
    await transport.client.answer("int-scope", { "1.seats": ["4"], "2.seats": ["ada@example.com"] });
    await chat.resumeStream();
    expect(server.inputs[1]?.resume).toEqual([
      { interruptId: "int-scope", status: "resolved", payload: { scope: "module", seats: 4 } },
      { interruptId: "int-contact", status: "resolved", payload: { seats: "ada@example.com" } },
    ]);
  });

  it("rebuilds a reloaded chat from the agent's MESSAGES_SNAPSHOT, its question still answerable", async () => {
    const snapshot: Message[] = [
      { id: "u-earlier", role: "user", content: "Earlier question" },
      { id: "a-earlier", role: "assistant", content: "An earlier answer the page never streamed." },
      { id: "u-1", role: "user", content: "Book it" },
      {
        id: "a-1",
        role: "assistant",
        content: "I need the scope.",
        toolCalls: [
          { id: "call-1", type: "function", function: { name: "lookup", arguments: '{"q":"seats"}' } },
        ],
      },
      { id: "tool-1", role: "tool", toolCallId: "call-1", content: '{"free":7}' },
    ];
    const server = await serve((input, index) => {
      const { started, finished } = run(input);
      if (index > 0) return [started, ...text("t2", "Booked."), finished()];
      return [
        started,
        ...text("t1", "I need the scope."),
        { type: EventType.MESSAGES_SNAPSHOT, messages: snapshot } as BaseEvent,
        finished({ type: "interrupt", interrupts: [scopeInterrupt] }),
      ];
    });
    const storage = memoryStorage();
    const first = new AgUiChatTransport({ url: server.url, storage });
    await new Chat({ id: "reload-1", transport: first }).sendMessage({ text: "Book it" });

    const reloaded = new AgUiChatTransport({ url: server.url, storage });
    const messages = await reloaded.loadThread("reload-1");
    expect(messages.map((message) => `${message.role}:${message.id}`)).toEqual([
      "user:u-earlier",
      "assistant:a-earlier",
      "user:u-1",
      "assistant:a-1",
    ]);
    expect(messages[1]?.parts).toMatchObject([
      { type: "text", text: "An earlier answer the page never streamed." },
    ]);
    expect(messages[3]?.parts).toMatchObject([
      { type: "text", text: "I need the scope." },
      { type: "tool-lookup", state: "output-available", input: { q: "seats" }, output: { free: 7 } },
      { type: "dynamic-tool", toolName: "ask", toolCallId: "int-scope", state: "input-available" },
    ]);

    const chat = new Chat({ id: "reload-1", transport: reloaded, messages });
    await reloaded.client.answer("int-scope", {});
    await chat.resumeStream();
    expect(chat.messages.map((message) => message.id)).toEqual(["u-earlier", "a-earlier", "u-1", "a-1"]);
    expect(chat.messages[3]?.parts.at(-1)).toMatchObject({ type: "text", text: "Booked." });
    expect(askParts(chat.messages[3])[0]?.state).toBe("output-available");
    expect(server.inputs[1]?.messages.map((message: Message) => message.id)).toEqual(
      snapshot.map((m) => m.id),
    );
    expect(server.inputs[1]?.resume).toEqual([
      { interruptId: "int-scope", status: "resolved", payload: { scope: "module", seats: 2 } },
    ]);
    expect(await new AgUiChatTransport({ url: server.url }).loadThread("reload-1")).toEqual([]);
  });

  it("rebuilds a reloaded chat with its settled question set and approval where they were asked, as the live page showed them", async () => {
    const purge: Interrupt = { id: "int-purge", reason: "tool_approval", toolCallId: "call-1" };
    const server = await serve((input, index) => {
      const { started, finished } = run(input);
      if (index === 0)
        return [
          started,
          ...text("t1", "Let me ask."),
          finished({ type: "interrupt", interrupts: [scopeInterrupt] }),
        ];
      if (index === 1)
        return [
          started,
          ...toolCall("call-1", "purge_cache", '{"cache":"images"}'),
          finished({ type: "interrupt", interrupts: [purge] }),
        ];
      return [
        started,
        {
          type: EventType.TOOL_CALL_RESULT,
          messageId: "result-1",
          toolCallId: "call-1",
          content: '{"purged":true}',
        },
        ...text("t3", "Purged, for this file."),
        finished(),
      ] as BaseEvent[];
    });
    const storage = memoryStorage();
    const live = new AgUiChatTransport({ url: server.url, storage });
    const chat = new Chat({ id: "settled-1", transport: live });
    await chat.sendMessage({ text: "Purge it" });
    await live.client.answer("int-scope", { scope: ["file"] });
    await chat.resumeStream();
    await live.client.approve("call-1");
    await chat.resumeStream();
    expect(chat.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(askParts(chat.messages[1])[0]).toMatchObject({
      state: "output-available",
      output: { answers: { scope: ["file"], seats: ["2"] }, skipped: false },
    });

    const reloaded = new AgUiChatTransport({ url: server.url, storage });
    const messages = await reloaded.loadThread("settled-1");
    expect(messages.map((message) => `${message.role}:${message.id}`)).toEqual(
      chat.messages.map((message) => `${message.role}:${message.id}`),
    );
    expect(comparable(messages[1])).toEqual(comparable(chat.messages[1]));
    expect(messages[1]?.parts.find((part) => part.type === "tool-purge_cache")).toMatchObject({
      state: "output-available",
      approval: { id: "int-purge", approved: true },
      output: { purged: true },
    });
    // Nothing is left to answer: the settled set is not asked again.
    expect(await reloaded.client.answer("int-scope", {})).toMatchObject({
      ok: false,
      failure: { kind: "not-found" },
    });
    expect(await reloaded.reconnectToStream({ chatId: "settled-1" })).toBeNull();
    expect(server.inputs).toHaveLength(3);
  });

  it("rebuilds a skipped question set, and one the person wrote past, in the message that asked it", async () => {
    const server = await serve((input, index) => {
      const { started, finished } = run(input);
      return index < 2
        ? [started, finished({ type: "interrupt", interrupts: [{ ...scopeInterrupt, id: `int-${index}` }] })]
        : [started, ...text("t2", "Something else, then."), finished()];
    });
    const storage = memoryStorage();
    const live = new AgUiChatTransport({ url: server.url, storage });
    const chat = new Chat({ id: "skipped-1", transport: live });
    await chat.sendMessage({ text: "Book it" });
    await live.client.skip("int-0");
    await chat.resumeStream();
    await chat.sendMessage({ text: "Check the weather instead" });
    expect(server.inputs[2]?.resume).toEqual([{ interruptId: "int-1", status: "cancelled" }]);

    const messages = await new AgUiChatTransport({ url: server.url, storage }).loadThread("skipped-1");
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(messages[1]?.id).toBe(chat.messages[1]?.id);
    expect(askParts(messages[1]).map((part) => [part.toolCallId, part.state])).toEqual([
      ["int-0", "output-available"],
      ["int-1", "output-denied"],
    ]);
    expect(askParts(messages[1])[0]?.output).toMatchObject({ skipped: true });
    expect(messages[3]?.parts).toMatchObject([{ type: "text", text: "Something else, then." }]);
  });

  it("rebuilds a question still open, asked before any message of the agent, in the live message's id on every reload", async () => {
    const server = await serve((input) => [
      run(input).started,
      run(input).finished({ type: "interrupt", interrupts: [scopeInterrupt] }),
    ]);
    const storage = memoryStorage();
    const chat = new Chat({ id: "open-1", transport: new AgUiChatTransport({ url: server.url, storage }) });
    await chat.sendMessage({ text: "Book it" });
    const liveId = chat.messages[1]?.id;
    expect(askParts(chat.messages[1])[0]?.state).toBe("input-available");

    for (const reload of [1, 2]) {
      const messages = await new AgUiChatTransport({ url: server.url, storage }).loadThread("open-1");
      expect(
        messages.map((message) => `${message.role}:${message.id}`),
        `reload ${reload}`,
      ).toEqual(chat.messages.map((message) => `${message.role}:${message.id}`));
      expect(messages[1]?.id).toBe(liveId);
      expect(askParts(messages[1]).map((part) => [part.toolCallId, part.state])).toEqual([
        ["int-scope", "input-available"],
      ]);
    }

    // A thread stored before the open message's id was kept still loads, its question answerable.
    const key = [...storage.items.keys()][0] as string;
    const { openMessageId: _kept, ...older } = JSON.parse(storage.items.get(key) as string);
    storage.items.set(key, JSON.stringify(older));
    const reloaded = new AgUiChatTransport({ url: server.url, storage });
    const messages = await reloaded.loadThread("open-1");
    expect(messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(askParts(messages[1])[0]?.state).toBe("input-available");
    expect(await reloaded.client.answer("int-scope", {})).toMatchObject({ ok: true });
  });

  it("cancels an interrupt the person wrote past, since every interrupt must be covered", async () => {
    const server = await serve((input, index) => {
      const { started, finished } = run(input);
      return index === 0
        ? [started, finished({ type: "interrupt", interrupts: [scopeInterrupt] })]
        : [started, ...text("t2", "Fine, something else then."), finished()];
    });
    const transport = new AgUiChatTransport({ url: server.url });
    const chat = new Chat({ id: "past-1", transport });
    await chat.sendMessage({ text: "Book it" });
    await chat.sendMessage({ text: "Never mind, check the weather" });
    expect(server.inputs[1]?.resume).toEqual([{ interruptId: "int-scope", status: "cancelled" }]);
    expect(chat.messages.map((message) => message.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(await transport.client.answer("int-scope", {})).toMatchObject({
      ok: false,
      failure: { kind: "not-found" },
    });
  });

  it("shows a RUN_ERROR as the chat's error, with what came before it kept", async () => {
    quietClientErrors();
    const server = await serve((input) => [
      run(input).started,
      ...text("t1", "Starting."),
      { type: EventType.RUN_ERROR, message: "The model is overloaded." } as BaseEvent,
    ]);
    const chat = new Chat({ id: "error-1", transport: new AgUiChatTransport({ url: server.url }) });
    await chat.sendMessage({ text: "Go" });
    expect(chat.status).toBe("error");
    expect(chat.error?.message).toBe("The model is overloaded.");
    expect(chat.messages[1]?.parts).toMatchObject([{ type: "text", text: "Starting." }]);
  });

  it("carries a Prepick producer's failure code and error id in the chat's error, for the page's sentence", async () => {
    quietClientErrors();
    const server = await serve((input) => [
      run(input).started,
      {
        type: EventType.RUN_ERROR,
        message: "The model did not answer in time, so the reply stopped.",
        code: "run_failed",
        metadata: { prepick: { code: "model-timeout", errorId: "err-77" } },
      } as BaseEvent,
    ]);
    const chat = new Chat({ id: "error-2", transport: new AgUiChatTransport({ url: server.url }) });
    await chat.sendMessage({ text: "Go" });
    expect(readRunFailure(chat.error)).toEqual({ code: "model-timeout", errorId: "err-77" });
  });

  it("keeps the conversation on screen when storage refuses to store it", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const server = await serve((input) => [
      run(input).started,
      ...text("t1", "Hello."),
      run(input).finished(),
    ]);
    const storage = {
      getItem: () => null,
      setItem: () => {
        throw new Error("QuotaExceededError");
      },
    };
    const chat = new Chat({ id: "full-1", transport: new AgUiChatTransport({ url: server.url, storage }) });
    await chat.sendMessage({ text: "Hi" });
    expect(chat.status).toBe("ready");
    expect(chat.messages[1]?.parts).toMatchObject([{ type: "text", text: "Hello." }]);
    expect(warn).toHaveBeenCalledWith(
      expect.stringMatching(/could not store thread "full-1": QuotaExceededError/),
    );
  });

  it("refuses a stream the AG-UI verifier refuses, with the verifier's reason", async () => {
    quietClientErrors();
    const server = await serve((input) => [
      run(input).started,
      { type: EventType.TEXT_MESSAGE_CONTENT, messageId: "ghost", delta: "Out of nowhere" } as BaseEvent,
      run(input).finished(),
    ]);
    const chat = new Chat({ id: "verify-1", transport: new AgUiChatTransport({ url: server.url }) });
    await chat.sendMessage({ text: "Go" });
    expect(chat.status).toBe("error");
    expect(chat.error?.message).toMatch(/TEXT_MESSAGE_CONTENT/);
    await expect(server.verified()).rejects.toThrow(/TEXT_MESSAGE_CONTENT/);
  });
});
