import type { BaseEvent } from "@ag-ui/client";
import { Chat } from "@ai-sdk/react";
import type { DynamicToolUIPart, UIMessage } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentConfig } from "../../server/agents/types";
import type { PrepickServer } from "../../server/server";
import { startServer } from "../../server/testing/harness";
import { editedPurges, editor, operator, refactorer } from "../../server/testing/test-agents";
import { specIntake } from "../../src/core/spec-examples";
import { AgUiChatTransport } from "../../src/transport/ag-ui/ag-ui-chat-transport";
import { verifyResponse } from "../../src/transport/ag-ui/ag-ui-server.fixture";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(agents: AgentConfig[]): Promise<PrepickServer> {
  const server = await startServer({ agents, stopGraceMs: 200 });
  cleanups.push(() => server.close());
  return server;
}

/** A fetch that keeps every request body and every AG-UI event our endpoint answered with. */
function recordingFetch() {
  const inputs: Record<string, unknown>[] = [];
  const responses: BaseEvent[][] = [];
  const fetchAndRecord = async (url: string, init: RequestInit) => {
    inputs.push(JSON.parse(String(init.body)));
    const response = await fetch(url, init);
    const [mine, theirs] = (response.body as ReadableStream<Uint8Array>).tee();
    const events: BaseEvent[] = [];
    responses.push(events);
    void new Response(mine).text().then(
      (text) => {
        for (const block of text.split("\n\n")) {
          const data = block
            .split("\n")
            .filter((line) => line.startsWith("data: "))
            .map((line) => line.slice(6))
            .join("\n");
          if (data) events.push(JSON.parse(data) as BaseEvent);
        }
      },
      () => {
        // The client aborts a response once it has read its RUN_ERROR; the copy ends there too.
      },
    );
    return new Response(theirs, { status: response.status, headers: response.headers });
  };
  return { fetch: fetchAndRecord, inputs, responses };
}

function askPart(message: UIMessage | undefined): DynamicToolUIPart | undefined {
  return message?.parts.find(
    (part): part is DynamicToolUIPart => part.type === "dynamic-tool" && part.toolName === "ask",
  );
}

function texts(message: UIMessage | undefined): string[] {
  return message?.parts.flatMap((part) => (part.type === "text" ? [part.text] : [])) ?? [];
}

async function verified(responses: readonly BaseEvent[][]) {
  // The tee's copy is read as the client reads its own; give it the same turn to finish.
  await new Promise((resolve) => setTimeout(resolve, 50));
  for (const events of responses) {
    expect(events[0]?.type).toBe("RUN_STARTED");
    await verifyResponse(events);
  }
}

describe("AgUiChatTransport against the Prepick server's own POST /agent/ag-ui", { timeout: 120_000 }, () => {
  it("asks the intake with the server's full question set, answers it, and lands the reply in the same message", async () => {
    const server = await serve([refactorer]);
    const recorder = recordingFetch();
    const transport = new AgUiChatTransport({
      url: `${server.url}/agent/ag-ui?agent=refactorer`,
      headers: { "x-actor-id": "ada" },
      fetch: recorder.fetch,
    });
    const chat = new Chat({ id: "thread-intake", transport });
    await chat.sendMessage({ text: "Refactor the parser" });

    expect(chat.status).toBe("ready");
    const assistant = chat.messages[1];
    const ask = askPart(assistant);
    expect(ask?.state).toBe("input-available");
    expect(ask?.toolCallId).toMatch(/^intake-run-/);
    // metadata.prepick.request, not the schema: hotkeys and the spec's preamble come through as written.
    expect(ask?.input).toMatchObject({
      preamble: specIntake.preamble,
      source: "intake",
      questions: [
        { id: "scope", options: specIntake.questions[0]?.options, defaults: ["module"] },
        { id: "tests", multiple: true, defaults: ["unit"] },
      ],
    });

    const answered = await transport.client.answer(ask?.toolCallId as string, { scope: ["file"] });
    expect(answered.ok).toBe(true);
    await chat.resumeStream();

    expect(chat.status).toBe("ready");
    expect(chat.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(chat.messages[1]?.id).toBe(assistant?.id);
    expect(askPart(chat.messages[1])).toMatchObject({
      state: "output-available",
      output: { answers: { scope: ["file"], tests: ["unit"] }, skipped: false },
    });
    expect(texts(chat.messages[1]).join("")).not.toBe("");
    expect(recorder.inputs[1]?.resume).toEqual([
      { interruptId: ask?.toolCallId, status: "resolved", payload: { scope: "file", tests: ["unit"] } },
    ]);
    const row = await server.store.toolCalls.get(ask?.toolCallId as string);
    expect(row?.status).toBe("answered");
    expect(row?.output).toMatchObject({ answers: { scope: ["file"], tests: ["unit"] } });
    expect(recorder.responses).toHaveLength(2);
    await verified(recorder.responses);
  });

  it("skips the intake as cancelled, which the server settles as a skip", async () => {
    const server = await serve([refactorer]);
    const recorder = recordingFetch();
    const transport = new AgUiChatTransport({
      url: `${server.url}/agent/ag-ui?agent=refactorer`,
      headers: { "x-actor-id": "ada" },
      fetch: recorder.fetch,
    });
    const chat = new Chat({ id: "thread-skip", transport });
    await chat.sendMessage({ text: "Refactor the parser" });
    const ask = askPart(chat.messages[1]);
    await transport.client.skip(ask?.toolCallId as string);
    await chat.resumeStream();
    expect(recorder.inputs[1]?.resume).toEqual([{ interruptId: ask?.toolCallId, status: "cancelled" }]);
    expect((await server.store.toolCalls.get(ask?.toolCallId as string))?.status).toBe("skipped");
    expect(askPart(chat.messages[1])).toMatchObject({ state: "output-available", output: { skipped: true } });
    await verified(recorder.responses);
  });

  it("lets go of an intake settled elsewhere: shows the server's outcome, and the next message starts a turn", async () => {
    const server = await serve([refactorer]);
    const recorder = recordingFetch();
    const transport = new AgUiChatTransport({
      url: `${server.url}/agent/ag-ui?agent=refactorer`,
      headers: { "x-actor-id": "ada" },
      fetch: recorder.fetch,
    });
    const chat = new Chat({ id: "thread-elsewhere", transport });
    await chat.sendMessage({ text: "Refactor the parser" });
    const ask = askPart(chat.messages[1]);
    // Another tab, or the inbox, skips it through the Prepick wire first.
    const skipped = await fetch(`${server.url}/agent/tool-call/skip`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-actor-id": "ada" },
      body: JSON.stringify({ toolCallId: ask?.toolCallId }),
    });
    expect(skipped.status).toBe(200);

    expect((await transport.client.answer(ask?.toolCallId as string, { scope: ["file"] })).ok).toBe(true);
    await chat.resumeStream();
    expect(chat.status).toBe("error");
    expect(chat.error?.message).toMatch(/already settled as skipped/);
    // The page shows what the agent went on with, not the answer that came too late.
    expect(askPart(chat.messages[1])).toMatchObject({ state: "output-available", output: { skipped: true } });
    expect(transport.agent("thread-elsewhere").pendingInterrupts).toEqual([]);

    chat.clearError();
    await chat.sendMessage({ text: "Now rename the lexer" });
    expect(chat.status).toBe("ready");
    expect(recorder.inputs[2]?.resume).toBeUndefined();
    expect(texts(chat.messages.at(-1)).join("")).not.toBe("");
    const runs = await server.store.runs.ofThread("thread-elsewhere");
    expect(runs.map((run) => run.status)).toEqual(["completed", "completed"]);
    expect((await server.store.toolCalls.get(ask?.toolCallId as string))?.status).toBe("skipped");
  });

  it("takes a message written past the questions as skipping them, then as the thread's next turn", async () => {
    const server = await serve([refactorer]);
    const recorder = recordingFetch();
    const transport = new AgUiChatTransport({
      url: `${server.url}/agent/ag-ui?agent=refactorer`,
      headers: { "x-actor-id": "ada" },
      fetch: recorder.fetch,
    });
    const chat = new Chat({ id: "thread-past", transport });
    await chat.sendMessage({ text: "Refactor the parser" });
    const ask = askPart(chat.messages[1]);
    await chat.sendMessage({ text: "Actually, rename the lexer too" });

    expect(chat.status).toBe("ready");
    expect(recorder.inputs[1]?.resume).toEqual([{ interruptId: ask?.toolCallId, status: "cancelled" }]);
    expect((await server.store.toolCalls.get(ask?.toolCallId as string))?.status).toBe("skipped");
    const runs = await server.store.runs.ofThread("thread-past");
    expect(runs.map((run) => [run.userMessage.parts[0]?.text, run.status])).toEqual([
      ["Refactor the parser", "completed"],
      ["Actually, rename the lexer too", "completed"],
    ]);
    expect(chat.messages.at(-1)?.role).toBe("assistant");
    expect(texts(chat.messages.at(-1)).join("")).not.toBe("");
    await verified(recorder.responses);
  });

  it("shows a tool waiting for approval on its own part, and runs it once approved", async () => {
    const server = await serve([operator]);
    const recorder = recordingFetch();
    const transport = new AgUiChatTransport({
      url: `${server.url}/agent/ag-ui?agent=operator`,
      headers: { "x-actor-id": "ada" },
      fetch: recorder.fetch,
    });
    const chat = new Chat({ id: "thread-approve", transport });
    await chat.sendMessage({ text: "Please purge the images cache" });
    const tool = chat.messages[1]?.parts.find((part) => part.type === "tool-purge_cache") as
      | { toolCallId: string; state: string }
      | undefined;
    expect(tool?.state).toBe("approval-requested");
    await transport.client.approve(tool?.toolCallId as string);
    await chat.resumeStream();
    expect(chat.messages[1]?.parts.find((part) => part.type === "tool-purge_cache")).toMatchObject({
      state: "output-available",
      output: { purged: true },
    });
    expect((await server.store.toolCalls.get(tool?.toolCallId as string))?.status).toBe("completed");
    await verified(recorder.responses);
  });

  it("shows an editable call's fields on its approval part, and resumes with the field changed", async () => {
    const server = await serve([editor]);
    const recorder = recordingFetch();
    const transport = new AgUiChatTransport({
      url: `${server.url}/agent/ag-ui?agent=editor`,
      headers: { "x-actor-id": "ada" },
      fetch: recorder.fetch,
    });
    const chat = new Chat({ id: "thread-edit", transport });
    await chat.sendMessage({ text: "Please purge the cache" });
    // An approval with its fields, not a question set, though its interrupt has a responseSchema.
    expect(askPart(chat.messages[1])).toBeUndefined();
    const tool = chat.messages[1]?.parts.find((part) => part.type === "tool-purge_cache") as
      | {
          toolCallId: string;
          state: string;
          toolMetadata?: { questions?: { id: string; defaults?: string[] }[] };
        }
      | undefined;
    expect(tool?.state).toBe("approval-requested");
    expect(tool?.toolMetadata?.questions?.map((question) => [question.id, question.defaults])).toEqual([
      ["cache", ["pages"]],
      ["hours", ["24"]],
      ["note", []],
      ["region", ["eu"]],
    ]);
    const refused = await transport.client.approve(tool?.toolCallId as string, { hours: ["100"] });
    expect(refused.ok ? undefined : refused.failure.kind).toBe("invalid");
    const before = editedPurges.length;
    const approved = await transport.client.approve(tool?.toolCallId as string, { hours: ["6"] });
    expect(approved).toMatchObject({
      ok: true,
      result: { output: { input: { cache: "pages", hours: 6, region: "eu" }, edited: ["hours"] } },
    });
    await chat.resumeStream();
    expect(recorder.inputs.at(-1)?.resume).toEqual([
      { interruptId: tool?.toolCallId, status: "resolved", payload: { approved: true, hours: 6 } },
    ]);
    expect(chat.messages[1]?.parts.find((part) => part.type === "tool-purge_cache")).toMatchObject({
      state: "output-available",
      output: { purged: "pages", hours: 6 },
      callProviderMetadata: { prepick: { edited: ["hours"] } },
    });
    expect(editedPurges.slice(before).map((purge) => purge.input)).toEqual([
      { cache: "pages", hours: 6, region: "eu" },
    ]);
    expect((await server.store.toolCalls.get(tool?.toolCallId as string))?.edited).toEqual(["hours"]);
    await verified(recorder.responses);
  });
});
