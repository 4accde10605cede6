import type { Frame, SequencedFrame } from "@/lib/prepick/core/frames";

/** One server-sent event: its own `id` and `event` fields, if any, and its `data` lines joined by `\n`. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: string;
}

/**
 * Splits text into server-sent events as the EventSource spec reads them: lines end at CRLF, LF or
 * CR (a chunk may end anywhere, even between the CR and LF of one line end), a leading BOM is
 * dropped, `:` starts a comment, a blank line ends an event, and an event without data is none.
 * Other fields (`retry`, unknown ones) are ignored, and so is an event cut off by the end.
 */
export function sseEvents(): TransformStream<string, SseEvent> {
  let rest = "";
  let started = false;
  let afterCr = false;
  let event: Partial<SseEvent> = {};
  let data: string[] = [];
  const read = (line: string, controller: TransformStreamDefaultController<SseEvent>) => {
    if (line === "") {
      if (data.length > 0) controller.enqueue({ ...event, data: data.join("\n") });
      event = {};
      data = [];
      return;
    }
    const colon = line.indexOf(":");
    if (colon === 0) return;
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(line[colon + 1] === " " ? colon + 2 : colon + 1);
    if (field === "data") data.push(value);
    else if (field === "event") event.event = value;
    else if (field === "id" && !value.includes("\0")) event.id = value;
  };
  return new TransformStream({
    transform(chunk, controller) {
      if (chunk === "") return;
      if (!started && chunk.startsWith("\uFEFF")) chunk = chunk.slice(1);
      if (afterCr && chunk.startsWith("\n")) chunk = chunk.slice(1);
      started = true;
      afterCr = chunk.endsWith("\r");
      const lines = (rest + chunk).split(/\r\n|\r|\n/);
      rest = lines.pop() ?? "";
      for (const line of lines) read(line, controller);
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
  return body
    .pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>)
    .pipeThrough(sseEvents())
    .pipeThrough(
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
          if (typeof frame !== "object" || frame === null || typeof (frame as Frame).kind !== "string")
            return;
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
