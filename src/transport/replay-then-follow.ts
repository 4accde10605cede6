import { readUIMessageStream, type UIMessage, type UIMessageChunk } from "ai";

/** One item of a transport's source, folded: the chunks it becomes, and whether the response ends with it. */
export interface FollowStep {
  /** The AI SDK chunks the item becomes, in order. */
  chunks: readonly UIMessageChunk[];
  /** True when the item ends the response (the run parked or finished). */
  end: boolean;
}

/** How a transport turns the items of its source (frames, AG-UI events) into a response's chunks. */
export interface FollowSteps<T> {
  /** Folds one item into chunks; may wait (for the pattern engine, say). */
  fold(item: T): FollowStep | Promise<FollowStep>;
  /** The source closed before an item ended the response: the chunks that say so (none when left out). */
  ended?(): readonly UIMessageChunk[];
  /** The source failed: the chunks that end the response with it. Left out, the stream fails with the error. */
  failed?(error: unknown): readonly UIMessageChunk[];
  /** Runs once the response is over, whichever way it ended (the reader cancelled it too). */
  settled?(): void;
}

/**
 * The one way both transports answer the AI SDK: a response stream that first replays the chunks
 * already seen of the assistant message (a continuation rebuilds the whole message, which
 * `resumeStreamIsReplay` tells the AI SDK), then folds each item of `source` as it arrives, until
 * an item ends the response, the source closes, or the reader cancels (which cancels the source).
 */
export function replayThenFollow<T>(
  replay: readonly UIMessageChunk[],
  source: ReadableStream<T>,
  steps: FollowSteps<T>,
): ReadableStream<UIMessageChunk> {
  const reader = source.getReader();
  let over = false;
  const settle = () => {
    if (over) return;
    over = true;
    steps.settled?.();
  };
  const close = (
    controller: ReadableStreamDefaultController<UIMessageChunk>,
    chunks: readonly UIMessageChunk[],
  ) => {
    for (const chunk of chunks) controller.enqueue(chunk);
    controller.close();
    settle();
    void reader.cancel().catch(() => {});
  };
  return new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of replay) controller.enqueue(chunk);
    },
    async pull(controller) {
      // Until something is enqueued: a pull that enqueues nothing is not called again.
      for (;;) {
        let next: ReadableStreamReadResult<T>;
        try {
          next = await reader.read();
        } catch (error) {
          if (!steps.failed) {
            settle();
            throw error;
          }
          return close(controller, steps.failed(error));
        }
        if (next.done) return close(controller, steps.ended?.() ?? []);
        const { chunks, end } = await steps.fold(next.value);
        if (end) return close(controller, chunks);
        for (const chunk of chunks) controller.enqueue(chunk);
        if (chunks.length > 0) return;
      }
    },
    async cancel(reason) {
      settle();
      await reader.cancel(reason).catch(() => {});
    },
  });
}

/** The assistant message `chunks` build, as the AI SDK builds it (a failed run's errors are part of it). */
export async function readMessage(id: string, chunks: readonly UIMessageChunk[]): Promise<UIMessage> {
  const stream = new ReadableStream<UIMessageChunk>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let message: UIMessage = { id, role: "assistant", parts: [] };
  for await (const snapshot of readUIMessageStream({ stream, message, onError: () => {} }))
    message = snapshot;
  return message;
}
