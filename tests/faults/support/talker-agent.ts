// The agent of the suite that kills a process in the middle of a model call, hosted through
// PREPICK_AGENTS_MODULE. Its model streams a reply a word at a time, as a real one does, and, as a
// real one may, says something else when the call is made again: each process says which attempt
// it is (TALKER_ATTEMPT), and the reply names it.
import type { LanguageModelV4, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { defineAgent } from "prepick/server";

/** How long the model waits between two words, in ms: long enough for each to stream on its own. */
const WORD_MS = 80;

/** The words of one attempt's reply. */
export function talkerWords(attempt: string): string[] {
  return [`Attempt ${attempt}:`, " one", " word", " at", " a", " time."];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const talker: LanguageModelV4 = {
  specificationVersion: "v4",
  provider: "test",
  modelId: "talker",
  supportedUrls: {},
  async doGenerate() {
    throw new Error("The talker only streams.");
  },
  async doStream() {
    const words = talkerWords(process.env.TALKER_ATTEMPT ?? "one");
    const stream = new ReadableStream<LanguageModelV4StreamPart>({
      async start(controller) {
        controller.enqueue({ type: "stream-start", warnings: [] });
        controller.enqueue({ type: "text-start", id: "t" });
        for (const word of words) {
          controller.enqueue({ type: "text-delta", id: "t", delta: word });
          await sleep(WORD_MS);
        }
        controller.enqueue({ type: "text-end", id: "t" });
        controller.enqueue({
          type: "finish",
          finishReason: { unified: "stop", raw: "stop" },
          usage: {
            inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
            outputTokens: { total: words.length, text: words.length, reasoning: 0 },
          },
        });
        controller.close();
      },
    });
    return { stream };
  },
};

export const agents = [defineAgent({ name: "talker", systemPrompt: "You talk.", model: talker })];
