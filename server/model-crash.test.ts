import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { MockLanguageModelV4 } from "ai/test";
import { afterEach, describe, expect, it } from "vitest";
import type { AgentConfig } from "./agents/types";
import { kinds, startServer, tempStore } from "./testing/harness";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 2, text: 2, reasoning: 0 },
};

/** A model that streams "Hello ", then either finishes with "world." or hangs until aborted. */
function greeter(hangs: boolean) {
  return new MockLanguageModelV4({
    doStream: async ({ abortSignal }) => ({
      stream: new ReadableStream<LanguageModelV4StreamPart>({
        async start(controller) {
          controller.enqueue({ type: "stream-start", warnings: [] });
          controller.enqueue({ type: "text-start", id: "t1" });
          controller.enqueue({ type: "text-delta", id: "t1", delta: "Hello " });
          if (hangs) {
            await new Promise((resolve) => abortSignal?.addEventListener("abort", resolve));
            controller.error(new Error("The process is stopping."));
            return;
          }
          controller.enqueue({ type: "text-delta", id: "t1", delta: "world." });
          controller.enqueue({ type: "text-end", id: "t1" });
          controller.enqueue({ type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage });
          controller.close();
        },
      }),
    }),
  });
}

const agent: AgentConfig = { name: "greeter", systemPrompt: "You greet." };

describe("a model call cut short by a stopping process", () => {
  it("is made again on resume without storing the frames it repeats", { timeout: 60_000 }, async () => {
    const dir = await tempStore();
    cleanups.push(dir.remove);
    const first = await startServer({
      agents: [agent],
      dataDir: dir.path,
      model: greeter(true),
      stopGraceMs: 200,
    });
    const reader = new AbortController();
    const response = await fetch(`${first.url}/agent/chat`, {
      method: "POST",
      headers: { "x-actor-id": "ada", "content-type": "application/json" },
      body: JSON.stringify({ message: { role: "user", parts: [{ type: "text", text: "Say hello" }] } }),
      signal: reader.signal,
    });
    const runId = response.headers.get("x-run-id") ?? "";
    // Bounded: 200 tries, 25 ms apart, for the first delta to be stored.
    for (let attempt = 0; attempt < 200; attempt++) {
      const frames = await first.store.frames.after(runId, 0);
      if (frames.some((entry) => entry.frame.kind === "text-delta")) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    reader.abort();
    await first.close();

    const second = await startServer({ agents: [agent], dataDir: dir.path, model: greeter(false) });
    cleanups.push(() => second.close());
    let frames = await second.store.frames.after(runId, 0);
    for (let attempt = 0; attempt < 200 && frames.at(-1)?.frame.kind !== "run-finish"; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
      frames = await second.store.frames.after(runId, 0);
    }
    expect(kinds(frames)).toEqual([
      "run-start",
      "step-start",
      "text-start",
      "text-delta",
      "text-delta",
      "text-end",
      "step-finish",
      "run-finish",
    ]);
    const text = frames.flatMap((entry) => (entry.frame.kind === "text-delta" ? [entry.frame.delta] : []));
    expect(text.join("")).toBe("Hello world.");
    expect(frames.map((entry) => entry.seq)).toEqual(frames.map((_, index) => index + 1));
  });
});
