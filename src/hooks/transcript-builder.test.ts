import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";
import { describe, expect, it, vi } from "vitest";
import type { Frame } from "@/lib/prepick/core/frames";
import { foldFrames } from "@/lib/prepick/transport/fold-frames";
import { malformedAskInput } from "../../server/model/scripted-questions";
import { TranscriptBuilder, type TranscriptChat } from "./transcript-builder";

function text(id: string, body: string): UIMessage {
  return { id, role: "assistant", parts: [{ type: "text", text: body }] };
}

function history(count: number): UIMessage[] {
  return Array.from({ length: count }, (_, index) => text(`m${index}`, `message ${index}`));
}

// The builder only reaches the chat when a block acts; these transcripts have no actions.
const idleChat = {
  messages: [],
  resumeStream: async () => {},
  addToolOutput: async () => {},
  addToolApprovalResponse: async () => {},
} as unknown as TranscriptChat;

function textsOf(built: ReturnType<TranscriptBuilder["build"]>): string[] {
  return built.map((message) =>
    message.blocks.map((block) => (block.type === "text" ? block.text : "")).join(),
  );
}

describe("TranscriptBuilder.build", () => {
  it("keeps every unchanged message's object when only the last one is replaced", () => {
    const builder = new TranscriptBuilder(idleChat, undefined);
    const base = history(5);
    const first = builder.build([...base, text("s", "a")]);
    const second = builder.build([...base, text("s", "ab")]);
    expect(second).not.toBe(first);
    for (let index = 0; index < base.length; index++) expect(second[index]).toBe(first[index]);
    expect(second[5]).not.toBe(first[5]);
    expect(textsOf(second)[5]).toBe("ab");
  });

  it("rebuilds a message replaced in the middle, and keeps the ones after it", () => {
    const builder = new TranscriptBuilder(idleChat, undefined);
    const messages = history(6);
    const first = builder.build(messages);
    const changed = [...messages];
    changed[2] = text("m2", "edited");
    const second = builder.build(changed);
    expect(textsOf(second)).toEqual([
      "message 0",
      "message 1",
      "edited",
      "message 3",
      "message 4",
      "message 5",
    ]);
    expect(second[2]).not.toBe(first[2]);
    for (const index of [0, 1, 3, 4, 5]) expect(second[index]).toBe(first[index]);
  });

  it("sees a change made in place to the array it was given last time", () => {
    const builder = new TranscriptBuilder(idleChat, undefined);
    const messages = history(4);
    const first = builder.build(messages);
    messages[1] = text("m1", "changed in place");
    messages.push(text("m4", "pushed in place"));
    const second = builder.build(messages);
    expect(textsOf(second)).toEqual([
      "message 0",
      "changed in place",
      "message 2",
      "message 3",
      "pushed in place",
    ]);
    expect(second[0]).toBe(first[0]);
    expect(second[2]).toBe(first[2]);
  });

  it("follows a transcript that shrinks, or whose messages move", () => {
    const builder = new TranscriptBuilder(idleChat, undefined);
    const messages = history(5);
    const first = builder.build(messages);
    expect(builder.build(messages.slice(0, 2))).toEqual(first.slice(0, 2));
    const moved = [messages[4], messages[0]] as UIMessage[];
    const second = builder.build(moved);
    expect(second).toHaveLength(2);
    expect(second[0]).toBe(first[4]);
    expect(second[1]).toBe(first[0]);
    expect(builder.build([])).toEqual([]);
  });
});

describe("a model's own ask call with a pattern, before the pattern engine is loaded", () => {
  it("shows as running, then as the question set once the engine is here, telling subscribers", async () => {
    vi.resetModules();
    const pattern = await import("@/lib/prepick/core/pattern");
    const { TranscriptBuilder: FreshBuilder } = await import("./transcript-builder");
    expect(pattern.patternEngineReady()).toBe(false);
    const input = {
      questions: [
        {
          id: "branch",
          prompt: "Branch name?",
          input: { type: "text", pattern: "[a-z]+" },
          defaults: ["fix"],
        },
      ],
    };
    const messages: UIMessage[] = [
      text("m0", "Before the question."),
      {
        id: "m1",
        role: "assistant",
        parts: [{ type: "tool-ask", toolCallId: "call-1", state: "input-available", input }],
      },
    ];
    const builder = new FreshBuilder(idleChat, undefined);
    const first = builder.build(messages);
    expect(first[1]?.blocks.map((block) => block.type === "tool" && block.status)).toEqual(["running"]);

    await new Promise<void>((resolve) => builder.subscribe(resolve));
    expect(builder.getVersion()).toBe(1);
    const second = builder.build(messages);
    expect(second[0]).toBe(first[0]);
    const [block] = second[1]?.blocks ?? [];
    expect(block?.type === "elicitation" && block.questions.map((question) => question.id)).toEqual([
      "branch",
    ]);
    expect(builder.elicitationBlocks()).toHaveLength(1);
  });
});

describe("an approval in the transcript", () => {
  const purge = (state: string, approval?: Record<string, unknown>): UIMessage => ({
    id: "a1",
    role: "assistant",
    parts: [
      {
        type: "dynamic-tool",
        toolName: "purge_cache",
        toolCallId: "call-1",
        state,
        input: { cache: "images" },
        providerExecuted: true,
        ...(approval ? { approval } : {}),
      } as unknown as UIMessage["parts"][number],
    ],
  });
  const approvalOf = (built: ReturnType<TranscriptBuilder["build"]>) => {
    const block = built[0]?.blocks[0];
    if (block?.type !== "approval") throw new Error(`expected an approval block, got ${block?.type}`);
    return block;
  };

  it("takes a decision made elsewhere from the stream, so no other tab keeps offering the buttons", () => {
    const builder = new TranscriptBuilder(idleChat, undefined);
    const card = approvalOf(builder.build([purge("approval-requested", { id: "call-1" })]));
    expect(card.getSnapshot().status).toBe("idle");
    const later = builder.build([purge("approval-responded", { id: "call-1", approved: true })]);
    builder.flush();
    expect(approvalOf(later)).toBe(card);
    expect(card.getSnapshot()).toEqual({ status: "settled", approved: true, conflict: false });
  });

  it("keeps a rejected call as its approval card with the reason, live and after a reload", () => {
    const live = new TranscriptBuilder(idleChat, undefined);
    const card = approvalOf(live.build([purge("approval-requested", { id: "call-1" })]));
    const denied = purge("output-denied", { id: "call-1", approved: false, reason: "Not during the sale" });
    expect(approvalOf(live.build([denied]))).toBe(card);
    live.flush();
    const decision = { status: "settled", approved: false, reason: "Not during the sale", conflict: false };
    expect(card.getSnapshot()).toEqual(decision);
    const reloaded = new TranscriptBuilder(idleChat, undefined);
    expect(approvalOf(reloaded.build([denied])).getSnapshot()).toEqual(decision);
  });

  it("shows a call cancelled with its run, which nobody decided, as a denied tool row", () => {
    const builder = new TranscriptBuilder(idleChat, undefined);
    approvalOf(builder.build([purge("approval-requested", { id: "call-1" })]));
    const block = builder.build([purge("output-denied", { id: "call-1" })])[0]?.blocks[0];
    expect(block).toMatchObject({ type: "tool", status: "denied", approval: undefined });
  });

  it("keeps an approved call as its approval card, running and then with its output or error", () => {
    const builder = new TranscriptBuilder(idleChat, undefined);
    const card = approvalOf(builder.build([purge("approval-requested", { id: "call-1" })]));
    expect(card.getResult()).toBeUndefined();
    const heard: string[] = [];
    card.subscribe(() => heard.push(card.getResult()?.status ?? "none"));
    expect(approvalOf(builder.build([purge("approval-responded", { id: "call-1", approved: true })]))).toBe(
      card,
    );
    builder.flush();
    expect(card.getResult()).toEqual({ status: "running" });
    const ran = purge("output-available", { id: "call-1", approved: true });
    (ran.parts[0] as unknown as Record<string, unknown>).output = { purged: "images" };
    expect(approvalOf(builder.build([ran]))).toBe(card);
    builder.flush();
    expect(card.getSnapshot()).toEqual({ status: "settled", approved: true, conflict: false });
    expect(card.getResult()).toEqual({ status: "done", output: { purged: "images" } });
    expect(heard).toContain("running");
    expect(heard.at(-1)).toBe("done");

    const reloaded = new TranscriptBuilder(idleChat, undefined);
    const failed = purge("output-error", { id: "call-1", approved: true });
    (failed.parts[0] as unknown as Record<string, unknown>).errorText = "purge_cache failed: busy";
    expect(approvalOf(reloaded.build([failed])).getResult()).toEqual({
      status: "error",
      errorText: "purge_cache failed: busy",
    });
  });

  it("carries the tool's description from the part's tool metadata", () => {
    const builder = new TranscriptBuilder(idleChat, undefined);
    const asked = purge("approval-requested", { id: "call-1" });
    (asked.parts[0] as unknown as Record<string, unknown>).toolMetadata = { description: "Purges a cache." };
    expect(approvalOf(builder.build([asked])).description).toBe("Purges a cache.");
    const bare = new TranscriptBuilder(idleChat, undefined);
    expect(
      approvalOf(bare.build([purge("approval-requested", { id: "call-1" })])).description,
    ).toBeUndefined();
  });
});

describe("a model's own malformed ask call", () => {
  it("goes back to the model once as a tool failure carrying the issues, and shows no form", () => {
    const addToolOutput = vi.fn(async () => {});
    const chat = { ...idleChat, addToolOutput } as unknown as TranscriptChat;
    const input = malformedAskInput();
    const messages: UIMessage[] = [
      {
        id: "m1",
        role: "assistant",
        parts: [{ type: "tool-ask", toolCallId: "call-1", state: "input-available", input }],
      },
    ];
    const builder = new TranscriptBuilder(chat, undefined);
    const [message] = builder.build(messages);
    expect(message?.blocks.map((block) => block.type)).toEqual(["tool"]);
    builder.flush();
    expect(addToolOutput).toHaveBeenCalledTimes(1);
    expect(addToolOutput).toHaveBeenCalledWith({
      tool: "ask",
      toolCallId: "call-1",
      state: "output-error",
      errorText: expect.stringMatching(/scope.*default/i),
    });
    builder.build([{ ...messages[0], parts: [...(messages[0]?.parts ?? [])] } as UIMessage]);
    builder.flush();
    expect(addToolOutput).toHaveBeenCalledTimes(1);
  });
});

describe("a model's ask call the reference server refused", () => {
  it("shows as a failed tool call at every point of its stream, never as a form", async () => {
    // What the server streams for a malformed ask: the call as an ordinary tool call, then its error.
    const frames: Frame[] = [
      { kind: "run-start", runId: "r", threadId: "t", messageId: "m", agent: "planner" },
      { kind: "step-start", step: 0 },
      { kind: "step-finish", step: 0 },
      {
        kind: "tool-call",
        id: "c1",
        toolName: "ask",
        input: malformedAskInput(),
      },
      { kind: "tool-error", id: "c1", error: "The questions were not asked. Fix these and call ask again:" },
    ];
    const { chunks } = foldFrames(frames.map((frame, index) => ({ seq: index + 1, frame })));
    const stream = new ReadableStream<UIMessageChunk>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    const seen: string[][] = [];
    for await (const message of readUIMessageStream({ stream })) {
      const built = new TranscriptBuilder(idleChat, undefined).build([structuredClone(message)]);
      seen.push(built[0]?.blocks.map((block) => block.type) ?? []);
      const [tool] = built[0]?.blocks.filter((block) => block.type === "tool") ?? [];
      if (message.parts.some((part) => "state" in part && part.state === "output-error")) {
        expect(tool).toMatchObject({ type: "tool", toolName: "ask", status: "error" });
      }
    }
    expect(seen.some((types) => types.includes("tool"))).toBe(true);
    expect(seen.flat()).not.toContain("elicitation");
  });
});
