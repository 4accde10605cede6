import { type EventSourceMessage, EventSourceParserStream } from "eventsource-parser/stream";
import type { Frame, SequencedFrame } from "@/lib/prepick/core/frames";

/**
 * A response body's server-sent events, read as `EventSource` reads them, by eventsource-parser
 * (the parser the AI SDK reads its own streams with): lines end at CRLF, LF or CR however the
 * bytes are cut, a leading byte order mark is dropped, comments and events without data are none,
 * and each event carries only its own `id`.
 */
export function serverSentEvents(body: ReadableStream<Uint8Array>): ReadableStream<EventSourceMessage> {
  return body
    .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
    .pipeThrough(endingCarriageReturn())
    .pipeThrough(new EventSourceParserStream());
}

/**
 * A CR that ends the whole text is a line end. The parser holds a CR at the end of a chunk until
 * it sees whether an LF follows, and at the end of the body none can: without this, an event
 * whose blank line is that last CR would be lost.
 */
function endingCarriageReturn(): TransformStream<string, string> {
  let last = "";
  return new TransformStream({
    transform(chunk, controller) {
      if (chunk === "") return;
      last = chunk;
      controller.enqueue(chunk);
    },
    flush(controller) {
      if (last.endsWith("\r")) controller.enqueue("\n");
    },
  });
}

/**
 * Reads a reference-server SSE body as sequenced frames: each event's `id` is the frame's
 * sequence number and its `data` one JSON frame. An event without an id is a model call's frame
 * not stored yet: it takes the next number after the last one read (`after` before the first)
 * and comes marked `unstored`. Events that are not frames (comments, keep-alives, unparsable data)
 * are skipped rather than failing the stream.
 */
export function readFrames(body: ReadableStream<Uint8Array>, after = 0): ReadableStream<SequencedFrame> {
  let last = after;
  return serverSentEvents(body).pipeThrough(
    new TransformStream({
      transform(event, controller) {
        const unstored = event.id === undefined;
        const seq = unstored ? last + 1 : Number(event.id);
        if (!Number.isInteger(seq) || event.data === "") return;
        let frame: unknown;
        try {
          frame = JSON.parse(event.data);
        } catch {
          return;
        }
        if (typeof frame !== "object" || frame === null || typeof (frame as Frame).kind !== "string") return;
        last = seq;
        controller.enqueue(
          unstored ? { seq, frame: frame as Frame, unstored } : { seq, frame: frame as Frame },
        );
      },
    }),
  );
}

/** Whether a frame ends a response stream: the run parked or finished. */
export function endsStream(frame: Frame): boolean {
  return frame.kind === "run-parked" || frame.kind === "run-finish";
}
