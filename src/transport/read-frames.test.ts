import type { EventSourceMessage } from "eventsource-parser/stream";
import { describe, expect, it } from "vitest";
import { readFrames, serverSentEvents } from "./read-frames";

async function collect<T>(stream: ReadableStream<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of stream as unknown as AsyncIterable<T>) items.push(item);
  return items;
}

/** The events a body sent as these chunks of text holds. */
function parse(chunks: readonly string[]): Promise<EventSourceMessage[]> {
  const source = new ReadableStream<string>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  return collect(serverSentEvents(source.pipeThrough(new TextEncoderStream())));
}

/** Every way of cutting `text` into two chunks, and into single characters. */
function cuts(text: string): string[][] {
  const pairs = [...text].map((_, at) => [text.slice(0, at), text.slice(at)]);
  return [...pairs, [...text]];
}

describe("serverSentEvents", () => {
  it("reads id, event and data fields, with or without the space after the colon", async () => {
    expect(await parse(["id: 1\nevent: frame\ndata: {}\n\n", "id:2\ndata:x\n\n"])).toEqual([
      { id: "1", event: "frame", data: "{}" },
      { id: "2", data: "x" },
    ]);
  });

  it("joins multi-line data with \\n and keeps a second space as part of the value", async () => {
    expect(await parse(["data: one\ndata:  two\ndata\n\n"])).toEqual([{ data: "one\n two\n" }]);
  });

  it("skips comments, keep-alives, unknown fields and events without data", async () => {
    expect(await parse([": keep-alive\n\nid: 3\nretry: 10\nfoo: bar\n\n:hi\ndata: y\n\n"])).toEqual([
      { data: "y" },
    ]);
  });

  it("gives each event only its own id", async () => {
    expect(await parse(["id: 1\ndata: a\n\ndata: b\n\n"])).toEqual([{ id: "1", data: "a" }, { data: "b" }]);
  });

  it("ignores an id that holds a NUL", async () => {
    expect(await parse(["id: 1\0\ndata: a\n\n"])).toEqual([{ data: "a" }]);
  });

  it("ends lines at CRLF, LF or CR alike", async () => {
    const expected = [
      { id: "1", data: "a\nb" },
      { id: "2", data: "c" },
    ];
    for (const end of ["\r\n", "\n", "\r"]) {
      const text = ["id: 1", "data: a", "data: b", "", "id: 2", "data: c", "", ""].join(end);
      expect(await parse([text]), JSON.stringify(end)).toEqual(expected);
    }
  });

  it("reads the same events however the text is cut into chunks, even inside a CRLF pair", async () => {
    const text = "id: 1\r\ndata: a\r\ndata: b\r\n\r\n: c\rid: 2\rdata: é\r\r";
    const expected = [
      { id: "1", data: "a\nb" },
      { id: "2", data: "é" },
    ];
    for (const chunks of cuts(text)) expect(await parse(chunks), JSON.stringify(chunks)).toEqual(expected);
  });

  it("does not take a CR at the end of one chunk and an LF at the start of the next for two line ends", async () => {
    expect(await parse(["data: a\r", "\ndata: b\r", "\n", "\r\n"])).toEqual([{ data: "a\nb" }]);
  });

  it("drops a leading byte order mark, and only a leading one", async () => {
    expect(await parse(["", "\uFEFFdata: a\n\n", "data: \uFEFFb\n\n"])).toEqual([
      { data: "a" },
      { data: "\uFEFFb" },
    ]);
    expect(await parse(["\uFEFF", "data: a\n\n"])).toEqual([{ data: "a" }]);
  });

  it("drops an event the stream ends in the middle of", async () => {
    expect(await parse(["data: a\n\ndata: b\n"])).toEqual([{ data: "a" }]);
  });
});

describe("readFrames", () => {
  it("reads UTF-8 bytes as frames, byte order mark and multi-byte characters split across chunks", async () => {
    const bytes = new TextEncoder().encode(
      '\uFEFFid: 1\r\ndata: {"kind":"text-delta","id":"t","delta":"é"}\r\n\r\n: ping\n\nid: 2\ndata: nope\n\n',
    );
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const byte of bytes) controller.enqueue(Uint8Array.of(byte));
        controller.close();
      },
    });
    expect(await collect(readFrames(body))).toEqual([
      { seq: 1, frame: { kind: "text-delta", id: "t", delta: "é" } },
    ]);
  });

  it("numbers a frame sent without an id after the last one read, and marks it unstored", async () => {
    const text = [
      'data: {"kind":"step-start","step":0}',
      "",
      'data: {"kind":"text-start","id":"0-t"}',
      "",
      'id: 7\ndata: {"kind":"text-end","id":"0-t"}',
      "",
      "",
    ].join("\n");
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(text));
        controller.close();
      },
    });
    expect(await collect(readFrames(body, 4))).toEqual([
      { seq: 5, frame: { kind: "step-start", step: 0 }, unstored: true },
      { seq: 6, frame: { kind: "text-start", id: "0-t" }, unstored: true },
      { seq: 7, frame: { kind: "text-end", id: "0-t" } },
    ]);
  });
});
