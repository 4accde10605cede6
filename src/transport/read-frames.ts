import { EventSourceParserStream } from "eventsource-parser/stream";
import type { Frame, SequencedFrame } from "@/lib/prepick/core";

/**
 * Reads a reference-server SSE body as sequenced frames: each event's `id` is the frame's
 * sequence number and its `data` one JSON frame. Events that are not frames (comments,
 * keep-alives, unparsable data) are skipped rather than failing the stream.
 */
export function readFrames(body: ReadableStream<Uint8Array>): ReadableStream<SequencedFrame> {
  return body
    .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
    .pipeThrough(new EventSourceParserStream())
    .pipeThrough(
      new TransformStream({
        transform(event, controller) {
          const seq = Number(event.id);
          if (!Number.isInteger(seq) || event.data === "") return;
          let frame: unknown;
          try {
            frame = JSON.parse(event.data);
          } catch {
            return;
          }
          if (typeof frame !== "object" || frame === null || typeof (frame as Frame).kind !== "string")
            return;
          controller.enqueue({ seq, frame: frame as Frame });
        },
      }),
    );
}

/** Whether a frame ends a response stream: the run parked or finished. */
export function endsStream(frame: Frame): boolean {
  return frame.kind === "run-parked" || frame.kind === "run-finish";
}
