import { Chat } from "@ai-sdk/react";
import type { DynamicToolUIPart, UIMessage } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { ElicitationOutcome } from "@/lib/prepick/core/question";
import { seatsQuestion } from "@/lib/prepick/core/spec-examples";
import { AgentChatTransport } from "@/lib/prepick/transport";
import { editor, refactorer } from "../../server/testing/test-agents";
import { startAgentServer } from "./agent-server.fixture";
import { TranscriptBuilder } from "./transcript-builder";
import type { ApprovalBlock, ElicitationBlock, TranscriptMessage } from "./transcript-types";

const booker = {
  name: "booker",
  systemPrompt: "You book tables.",
  intake: {
    questions: [seatsQuestion],
  },
};

const operator = {
  name: "operator",
  systemPrompt: "You operate the cache.",
  tools: [
    {
      name: "purge_cache",
      description: "Purges the cache.",
      inputSchema: z.object({}),
      needsApproval: true,
      sideEffects: true,
      keywords: ["purge"],
      execute: () => ({ purged: true }),
    },
  ],
};

let server: { url: string; close: () => Promise<void> };
beforeAll(async () => {
  server = await startAgentServer([refactorer, booker, operator, editor]);
});
afterAll(async () => {
  await server?.close();
});

let threads = 0;
function open(agent: string, actorId = "ada", chatId = `thread-${agent}-${++threads}`) {
  const transport = new AgentChatTransport({ api: server.url, actorId, agent });
  const chat = new Chat({ id: chatId, transport });
  return { transport, chat, builder: new TranscriptBuilder(chat, transport.client), chatId };
}

function blocks(builder: TranscriptBuilder, messages: UIMessage[]): TranscriptMessage["blocks"][number][] {
  const built = builder.build(messages);
  builder.flush();
  return built.flatMap((message) => message.blocks);
}

/** Asks the editor for a purge; its approval block and that block's form. */
async function editablePurge(chat: Chat<UIMessage>, builder: TranscriptBuilder) {
  await chat.sendMessage({ text: "Please purge the cache" });
  const approval = blocks(builder, chat.messages).find(
    (block): block is ApprovalBlock => block.type === "approval",
  );
  const form = approval?.form;
  if (!approval || !form) throw new Error("the editable call has no form");
  return { approval, form };
}

function elicitation(builder: TranscriptBuilder, messages: UIMessage[]): ElicitationBlock {
  const found = blocks(builder, messages).find(
    (block): block is ElicitationBlock => block.type === "elicitation",
  );
  if (!found) throw new Error(`no elicitation block in ${JSON.stringify(messages)}`);
  return found;
}

function askParts(messages: UIMessage[]): DynamicToolUIPart[] {
  return messages.flatMap((message) =>
    message.parts.filter(
      (part): part is DynamicToolUIPart => part.type === "dynamic-tool" && part.toolName === "ask",
    ),
  );
}

async function until(check: () => boolean, what: string) {
  for (let attempt = 0; attempt < 500 && !check(); attempt++) await new Promise((r) => setTimeout(r, 10));
  if (!check()) throw new Error(`timed out waiting for ${what}`);
}

const finished = (chat: Chat<UIMessage>) => () =>
  chat.status === "ready" && chat.messages.at(-1)?.parts.some((part) => part.type === "text") === true;

describe("the transport and the transcript against the reference server", () => {
  it("shows the intake as one part and continues the same message after an answer", async () => {
    const { chat, builder, transport, chatId } = open("refactorer");
    await chat.sendMessage({ text: "Refactor the parser" });
    expect(chat.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    const block = elicitation(builder, chat.messages);
    expect(block.source).toBe("intake");
    expect(block.id).toBe(`intake-${transport.run(chatId)?.runId}`);
    expect(block.getSnapshot().phase).toBe("pending");
    const assistantId = chat.messages[1]?.id;

    block.setValue("scope", "file");
    await block.submit();
    expect(block.getSnapshot().answer.status).toBe("settled");
    await until(finished(chat), "the continuation");

    expect(chat.messages.map((message) => `${message.role}:${message.id}`)).toEqual([
      `user:${chat.messages[0]?.id}`,
      `assistant:${assistantId}`,
    ]);
    const parts = askParts(chat.messages);
    expect(parts).toHaveLength(1);
    expect(parts[0]?.state).toBe("output-available");
    const outcome = parts[0]?.output as ElicitationOutcome;
    expect(outcome.answers).toEqual({ scope: ["file"], tests: ["unit"] });
    expect(outcome.defaulted).toEqual(["tests"]);
    expect(elicitation(builder, chat.messages)).toBe(block);
    expect(block.getSnapshot().settled?.answers.map((a) => [a.labels, a.defaulted])).toEqual([
      [["This file"], false],
      [["Unit"], true],
    ]);
  });

  it("reloads while pending (still answerable) and after settling (settled, never a live form)", async () => {
    const first = open("refactorer");
    await first.chat.sendMessage({ text: "Refactor the lexer" });

    const reloaded = new AgentChatTransport({ api: server.url, actorId: "ada" });
    const messages = await reloaded.loadThread(first.chatId);
    expect(messages.map((message) => message.id)).toEqual(first.chat.messages.map((message) => message.id));
    const chat = new Chat({ id: first.chatId, transport: reloaded, messages });
    const builder = new TranscriptBuilder(chat, reloaded.client);
    const block = elicitation(builder, chat.messages);
    expect(block.getSnapshot().phase).toBe("pending");
    await block.submit();
    await until(finished(chat), "the continuation after reload");
    expect(chat.messages).toHaveLength(2);
    expect(askParts(chat.messages)).toHaveLength(1);

    const again = new AgentChatTransport({ api: server.url, actorId: "ada" });
    const settled = await again.loadThread(first.chatId);
    const later = elicitation(
      new TranscriptBuilder(
        new Chat({ id: first.chatId, transport: again, messages: settled }),
        again.client,
      ),
      settled,
    );
    expect(later.getSnapshot().phase).toBe("settled");
    expect(later.getSnapshot().settled?.outcome.defaulted).toEqual(["scope", "tests"]);
    expect(await again.reconnectToStream({ chatId: first.chatId })).toBeNull();
  });

  it("maps a 400 onto the question it names", async () => {
    const { chat, transport, chatId } = open("booker");
    await chat.sendMessage({ text: "A table tonight" });
    const toolCallId = `intake-${transport.run(chatId)?.runId}`;
    const refused = await transport.client.answer(toolCallId, { seats: ["12"] });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.failure).toMatchObject({
      kind: "invalid",
      status: 400,
      issues: [{ questionId: "seats", rule: "max", message: 'answers["seats"] must be at most 9' }],
    });
    // A form whose own copy of the rules is looser still places the server's issue on the question.
    const { createElicitation } = await import("./create-elicitation");
    const { ToolCallError } = await import("@/lib/prepick/transport");
    const loose = createElicitation({
      id: toolCallId,
      request: { questions: [{ id: "seats", prompt: "How many seats?", input: { type: "number" } }] },
      onAnswer: async (answers) => {
        const response = await transport.client.answer(toolCallId, answers);
        if (!response.ok) throw new ToolCallError(response.failure);
        return response.result.output as ElicitationOutcome;
      },
    });
    loose.setValue("seats", "12");
    await loose.submit();
    expect(loose.getSnapshot().answer.status).toBe("rejected");
    expect(loose.getQuestion("seats")?.issues[0]?.message).toBe('answers["seats"] must be at most 9');
    // Its copy does not know the bound, so the person is not told a range it cannot name.
    expect(loose.getQuestion("seats")?.error).toBe("This answer was not accepted.");
  });

  it("skips, and the run continues on the agent's own picks", async () => {
    const { chat, builder } = open("refactorer");
    await chat.sendMessage({ text: "Refactor the printer" });
    const block = elicitation(builder, chat.messages);
    await block.skip();
    expect(block.getSnapshot().skip.status).toBe("settled");
    expect(block.getSnapshot().settled?.skipped).toBe(true);
    await until(finished(chat), "the continuation after a skip");
    expect(chat.messages).toHaveLength(2);
    expect((askParts(chat.messages)[0]?.output as ElicitationOutcome | undefined)?.skipped).toBe(true);
  });

  it("settles a double submit from a second tab with the first tab's outcome (409)", async () => {
    const tabA = open("refactorer");
    await tabA.chat.sendMessage({ text: "Refactor the checker" });
    const transportB = new AgentChatTransport({ api: server.url, actorId: "ada" });
    const chatB = new Chat({
      id: tabA.chatId,
      transport: transportB,
      messages: await transportB.loadThread(tabA.chatId),
    });
    const blockB = elicitation(new TranscriptBuilder(chatB, transportB.client), chatB.messages);
    const blockA = elicitation(tabA.builder, tabA.chat.messages);

    blockA.setValue("scope", "file");
    await blockA.submit();
    await blockB.submit();
    expect(blockB.getSnapshot().answer).toMatchObject({ status: "settled", conflict: true });
    expect(blockB.getSnapshot().settled?.outcome.answers.scope).toEqual(["file"]);
    const again = await tabA.transport.client.answer(blockA.id, {});
    expect(again.ok ? undefined : again.failure.kind).toBe("conflict");
    await until(finished(tabA.chat), "the continuation in tab A");
  });

  it("maps approvals onto the AI SDK's approval states", async () => {
    const { chat, builder } = open("operator");
    await chat.sendMessage({ text: "Please purge the cache" });
    const approval = blocks(builder, chat.messages).find(
      (block): block is ApprovalBlock => block.type === "approval",
    );
    expect(approval?.toolName).toBe("purge_cache");
    const part = chat.messages[1]?.parts.find((p) => p.type === "tool-purge_cache");
    expect(part).toMatchObject({ state: "approval-requested", providerExecuted: true });
    await approval?.approve();
    expect(approval?.getSnapshot()).toMatchObject({ status: "settled", approved: true });
    await until(finished(chat), "the continuation after approval");
    expect(chat.messages).toHaveLength(2);
    const done = chat.messages[1]?.parts.filter((p) => p.type === "tool-purge_cache");
    expect(done).toHaveLength(1);
    expect(done?.[0]).toMatchObject({
      state: "output-available",
      output: { purged: true },
      approval: { approved: true },
    });
    // The call that ran keeps its approval card, now with the tool's output and its description.
    const card = blocks(builder, chat.messages).find(
      (block): block is ApprovalBlock => block.type === "approval",
    );
    expect(card).toBe(approval);
    builder.flush();
    expect(card?.getResult()).toEqual({ status: "done", output: { purged: true } });
    expect(card?.description).toMatch(/./);
    expect(blocks(builder, chat.messages).some((block) => block.type === "tool")).toBe(false);
  });

  it("sends approvals decided with the AI SDK's own addToolApprovalResponse", async () => {
    const { chat } = open("operator");
    await chat.sendMessage({ text: "purge it all" });
    const part = chat.messages[1]?.parts.find((p) => p.type === "tool-purge_cache");
    const approvalId = part && "approval" in part ? part.approval?.id : undefined;
    expect(approvalId).toBeDefined();
    await chat.addToolApprovalResponse({ id: approvalId ?? "", approved: true });
    await chat.sendMessage();
    await until(finished(chat), "the continuation after a native approval");
    expect(chat.messages).toHaveLength(2);
    const done = chat.messages[1]?.parts.filter((p) => p.type === "tool-purge_cache");
    expect(done).toHaveLength(1);
    expect(done?.[0]).toMatchObject({ state: "output-available", output: { purged: true } });
  });

  it("dismisses a pending question when its run is cancelled", async () => {
    const { chat, builder, transport, chatId } = open("refactorer");
    await chat.sendMessage({ text: "Refactor the emitter" });
    const block = elicitation(builder, chat.messages);
    const cancelled = await transport.client.cancel(transport.run(chatId)?.runId ?? "");
    expect(cancelled.ok).toBe(true);
    await chat.resumeStream();
    expect(askParts(chat.messages)[0]?.state).toBe("output-denied");
    expect(elicitation(builder, chat.messages)).toBe(block);
    expect(block.getSnapshot().phase).toBe("dismissed");
    expect(transport.run(chatId)?.fold.status).toBe("cancelled");
  });

  it("asks an editable call's fields as a form, approves with the field changed, and shows what ran", async () => {
    const { chat, builder } = open("editor");
    const { approval, form } = await editablePurge(chat, builder);
    expect(form.questions.map((field) => [field.id, field.value])).toEqual([
      ["cache", ["pages"]],
      ["hours", ["24"]],
      ["note", []],
      ["region", ["eu"]],
    ]);
    // The same rules as answers, in the page: a value out of bounds is refused before sending.
    form.setValue("hours", "100");
    expect(form.isValid).toBe(false);
    expect(form.questions[1]?.error).toMatch(/72/);
    await approval.approve();
    expect(approval.getSnapshot().status).toBe("idle");
    form.setValue("hours", "6");
    expect(form.isValid).toBe(true);
    await approval.approve();
    expect(approval.getSnapshot()).toMatchObject({ status: "settled", approved: true });
    expect(approval.getEdits()).toEqual({
      input: { cache: "pages", hours: 6, region: "eu" },
      edited: ["hours"],
    });
    await until(finished(chat), "the continuation after the edited approval");
    const done = chat.messages[1]?.parts.find((p) => p.type === "tool-purge_cache");
    expect(done).toMatchObject({
      state: "output-available",
      output: { purged: "pages", hours: 6 },
      approval: { approved: true },
      callProviderMetadata: { prepick: { input: { hours: 6 }, edited: ["hours"] } },
    });
    builder.build(chat.messages);
    builder.flush();
    expect(approval.getResult()).toEqual({ status: "done", output: { hours: 6, purged: "pages" } });
  });

  it("places the server's refusal of an edit on its field, and leaves the call waiting", async () => {
    const { chat, builder } = open("editor");
    const { approval, form } = await editablePurge(chat, builder);
    // A refinement only the tool's own schema knows: the page lets it through, the server does not.
    form.setValue("region", "moon");
    await approval.approve();
    expect(approval.getSnapshot().status).toBe("idle");
    const region = form.questions.find((field) => field.id === "region");
    expect(region?.issues[0]).toMatchObject({ questionId: "region", rule: "schema", value: "moon" });
    expect(region?.error).toBeTruthy();
    form.setValue("region", "us");
    await approval.approve();
    expect(approval.getEdits()?.edited).toEqual(["region"]);
    await until(finished(chat), "the continuation after the corrected edit");
  });

  it("shows a rejected tool call as denied", async () => {
    const { chat, builder } = open("operator");
    await chat.sendMessage({ text: "purge everything" });
    const approval = blocks(builder, chat.messages).find(
      (block): block is ApprovalBlock => block.type === "approval",
    );
    await approval?.reject("not today");
    await until(finished(chat), "the continuation after rejection");
    const denied = chat.messages[1]?.parts.find((p) => p.type === "tool-purge_cache");
    expect(denied).toMatchObject({
      state: "output-denied",
      approval: { approved: false, reason: "not today" },
    });
  });
});
