import { createParser } from "eventsource-parser";
import type { Frame, SequencedFrame } from "prepick/core";

/** How long a stream read may take before it fails. */
const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * Reads an event stream (`id: <seq>` / `data: <frame>`) until it ends, `until` accepts a frame,
 * or the timeout passes (which fails, listing the frames seen). The body is cancelled when done.
 * An event without an id (a model call's frame not stored yet) takes the next number after the
 * last one read (`after` before the first) and comes marked `unstored`, as the transport reads it;
 * an event with an id after it says it is stored, under that number, and the mark goes.
 */
export async function readFrames(
  response: Response,
  {
    until,
    timeoutMs = DEFAULT_TIMEOUT_MS,
    after = 0,
  }: { until?: (frame: Frame) => boolean; timeoutMs?: number; after?: number } = {},
): Promise<SequencedFrame[]> {
  if (!response.body) throw new Error(`The response (${response.status}) has no body to read frames from`);
  const frames: SequencedFrame[] = [];
  let done = false;
  let last = after;
  const parser = createParser({
    onEvent(event) {
      if (done) return;
      const frame = JSON.parse(event.data) as Frame;
      last = event.id === undefined ? last + 1 : Number(event.id);
      if (event.id !== undefined) {
        for (let at = frames.length - 1; at >= 0 && frames[at]?.unstored; at--) {
          const held = frames[at] as SequencedFrame;
          frames[at] = { seq: held.seq, frame: held.frame };
        }
      }
      frames.push(event.id === undefined ? { seq: last, frame, unstored: true } : { seq: last, frame });
      if (until?.(frame)) done = true;
    },
  });
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(
        new Error(
          `Timed out after ${timeoutMs} ms reading the event stream; frames so far: ${JSON.stringify(frames)}`,
        ),
      );
    }, timeoutMs);
  });
  try {
    while (!done) {
      const chunk = await Promise.race([reader.read(), timeout]).catch((error: unknown) => {
        // The request's own time limit (its fetch's AbortSignal) ended the body: say what was read.
        if (!(error instanceof Error && error.name === "TimeoutError")) throw error;
        throw new Error(
          `The request's time limit ended the event stream of ${response.url}; frames so far: ${JSON.stringify(frames)}`,
          { cause: error },
        );
      });
      if (chunk.done) break;
      parser.feed(chunk.value);
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => undefined);
  }
  return frames;
}

/** True for the frames that end what a stream response carries: the run parked or finished. */
export function endsStream(frame: Frame): boolean {
  return frame.kind === "run-parked" || frame.kind === "run-finish";
}

/**
 * Frames as a reader holds them when it reconnects (the rule `AgentChatTransport` follows): the
 * frames without an id after the last one with an id were never stored, and are dropped.
 */
export function heldFrames(frames: readonly SequencedFrame[]): SequencedFrame[] {
  let stored = frames.length;
  while (stored > 0 && frames[stored - 1]?.unstored) stored -= 1;
  return frames.slice(0, stored);
}
