import { Chat } from "@ai-sdk/react";
import type { DynamicToolUIPart, UIMessage } from "ai";
import { afterEach, describe, expect, it } from "vitest";
import { AgUiChatTransport } from "./ag-ui-chat-transport";
import { startAgUiServer } from "./ag-ui-server.fixture";
import { refactoringAgUiAgent, refactoringMastra } from "./mastra-agent.fixture";

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** The refactorer on `@mastra/core`, served as AG-UI by `@ag-ui/mastra` over a real SSE endpoint. */
async function serveMastra() {
  const agent = refactoringAgUiAgent(refactoringMastra());
  const server = await startAgUiServer((input) => agent.run(input));
  closers.push(server.close);
  return server;
}

function askPart(message: UIMessage | undefined): DynamicToolUIPart | undefined {
  return message?.parts.find(
    (part): part is DynamicToolUIPart => part.type === "dynamic-tool" && part.toolName === "ask",
  );
}

describe("AgUiChatTransport against @ag-ui/mastra (a Mastra agent with a scripted model)", () => {
  it("shows reasoning, text and tool calls, asks the suspended tool's questions, and resumes it", async () => {
    const server = await serveMastra();
    const transport = new AgUiChatTransport({ url: server.url });
    const chat = new Chat({ id: "mastra-1", transport });
    await chat.sendMessage({ text: "Refactor the parser" });

    expect(chat.status).toBe("ready");
    const assistant = chat.messages[1];
    expect(assistant?.parts.filter((part) => part.type !== "step-start")).toMatchObject([
      { type: "reasoning", text: "I should read the parser before I touch it." },
      { type: "text", text: "Let me read the parser first." },
      {
        type: "tool-read_file",
        state: "output-available",
        input: { path: "src/parser.ts" },
        output: { path: "src/parser.ts", lines: 120 },
      },
      { type: "dynamic-tool", toolName: "ask", state: "input-available", providerExecuted: true },
    ]);
    // Mastra's resumeSchema (zod, as JSON Schema) read as the person's question, its default pre-picked.
    const ask = askPart(assistant);
    expect(ask?.input).toMatchObject({
      questions: [
        {
          id: "scope",
          prompt: "How much should I cover?",
          description: "The whole module includes its tests.",
          options: [
            { value: "file", label: "file" },
            { value: "module", label: "module" },
          ],
          defaults: ["module"],
        },
      ],
    });
    expect(ask?.toolCallId).toMatch(/::call-ask$/);

    const answered = await transport.client.answer(ask?.toolCallId as string, { scope: ["file"] });
    expect(answered.ok).toBe(true);
    await chat.resumeStream();

    expect(chat.messages.map((message) => message.role)).toEqual(["user", "assistant"]);
    expect(chat.messages[1]?.id).toBe(assistant?.id);
    expect(askPart(chat.messages[1])).toMatchObject({
      state: "output-available",
      output: { answers: { scope: ["file"] } },
    });
    const texts = chat.messages[1]?.parts.flatMap((part) => (part.type === "text" ? [part.text] : []));
    expect(texts).toEqual(["Let me read the parser first.", "Refactoring with scope file."]);
    expect(server.inputs[1]?.resume).toEqual([
      { interruptId: ask?.toolCallId, status: "resolved", payload: { scope: "file" } },
    ]);
    await server.verified();
  });

  it("resumes a skip as cancelled, which Mastra takes as the tool declined", async () => {
    const server = await serveMastra();
    const transport = new AgUiChatTransport({ url: server.url });
    const chat = new Chat({ id: "mastra-2", transport });
    await chat.sendMessage({ text: "Refactor the parser" });
    const ask = askPart(chat.messages[1]);
    await transport.client.skip(ask?.toolCallId as string);
    await chat.resumeStream();
    expect(chat.status).toBe("ready");
    expect(server.inputs[1]?.resume).toEqual([{ interruptId: ask?.toolCallId, status: "cancelled" }]);
    expect(askPart(chat.messages[1])).toMatchObject({ state: "output-available", output: { skipped: true } });
    await server.verified();
  });

  it("runs an in-process Mastra agent with no HTTP in between", async () => {
    const mastra = refactoringMastra();
    const transport = new AgUiChatTransport({ agent: (threadId) => refactoringAgUiAgent(mastra, threadId) });
    const chat = new Chat({ id: "mastra-3", transport });
    await chat.sendMessage({ text: "Refactor the parser" });
    const ask = askPart(chat.messages[1]);
    expect(ask?.state).toBe("input-available");
    await transport.client.answer(ask?.toolCallId as string, {});
    await chat.resumeStream();
    const texts = chat.messages[1]?.parts.flatMap((part) => (part.type === "text" ? [part.text] : []));
    expect(texts?.at(-1)).toBe("Refactoring with scope module.");
  });
});
