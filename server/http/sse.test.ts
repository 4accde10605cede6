import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { EVENT_STREAM_HEADERS, eventStreamResponse } from "./sse";

// The event-stream response every SSE endpoint sends, read as any runtime's fetch would read it.

const decoder = new TextDecoder();

describe("eventStreamResponse", () => {
  it("sends what its writer writes, with the stream's headers and the caller's, then ends", async () => {
    let ended = 0;
    const response = eventStreamResponse(
      async (enqueue) => {
        await enqueue("id: 1\ndata: {}\n\n");
        await new Promise((resolve) => setTimeout(resolve, 5));
        await enqueue("data: {}\n\n");
      },
      { headers: { "x-run-id": "run-1" }, onEnd: () => (ended += 1) },
    );
    expect(response.status).toBe(200);
    for (const [name, value] of Object.entries(EVENT_STREAM_HEADERS)) {
      expect(response.headers.get(name)).toBe(value);
    }
    expect(response.headers.get("x-run-id")).toBe("run-1");
    expect(await response.text()).toBe("id: 1\ndata: {}\n\ndata: {}\n\n");
    expect(ended).toBe(1);
  });

  it("makes its writer wait while about 64 KiB wait unread, and stops it when the reader leaves", async () => {
    let written = 0;
    let stopped: unknown;
    let ended = 0;
    const response = eventStreamResponse(
      async (enqueue, signal) => {
        while (!signal.aborted) {
          await enqueue(`data: ${"x".repeat(1_010)}\n\n`);
          written += 1;
        }
        stopped = signal.reason;
      },
      { onEnd: () => (ended += 1) },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(written).toBeGreaterThan(50);
    expect(written).toBeLessThan(80);
    const reader = response.body?.getReader();
    await reader?.read();
    await new Promise((resolve) => setTimeout(resolve, 20));
    await reader?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBeDefined();
    expect(ended).toBe(1);
  });

  it("cuts a reader that leaves it full past stallMs", async () => {
    const response = eventStreamResponse(
      async (enqueue, signal) => {
        while (!signal.aborted) await enqueue(`data: ${"y".repeat(4_090)}\n\n`);
      },
      { stallMs: 30 },
    );
    const reader = response.body?.getReader();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const read = async () => {
      for (;;) if ((await reader?.read())?.done) return;
    };
    await expect(read()).rejects.toThrow(/read nothing for 30 ms/);
  });

  it("ends when the server closes, and leaves no listener on the server's signal", async () => {
    const closing = new AbortController();
    const open = eventStreamResponse(
      async (enqueue, signal) => {
        await enqueue(": hello\n\n");
        await new Promise((resolve) => signal.addEventListener("abort", resolve, { once: true }));
      },
      { closing: closing.signal },
    );
    const done = eventStreamResponse(async (enqueue) => enqueue("data: {}\n\n"), { closing: closing.signal });
    expect(decoder.decode(await done.arrayBuffer())).toBe("data: {}\n\n");
    expect(getEventListeners(closing.signal, "abort")).toHaveLength(1);
    closing.abort();
    expect(await open.text()).toBe(": hello\n\n");
    expect(getEventListeners(closing.signal, "abort")).toHaveLength(0);
  });
});
