import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";

/** The token usage a mock model reports on `finish`: one in, one out. */
export const ONE_TOKEN_USAGE = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A mock model's `doStream` result: `stream-start`, then `parts`, then the end of the stream. */
export function streamOf(parts: LanguageModelV4StreamPart[]) {
  return {
    stream: new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        controller.enqueue({ type: "stream-start", warnings: [] });
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
    }),
  };
}

/**
 * A mock model's `doStream` result that never ends: `stream-start`, then `parts`, then nothing,
 * whatever its abort signal says, as a stuck provider behaves.
 */
export function hangingStreamOf(parts: LanguageModelV4StreamPart[] = []) {
  return {
    stream: new ReadableStream<LanguageModelV4StreamPart>({
      start(controller) {
        controller.enqueue({ type: "stream-start", warnings: [] });
        for (const part of parts) controller.enqueue(part);
      },
    }),
  };
}
