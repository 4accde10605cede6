import { describe, expect, it } from "vitest";
import { readJsonBody } from "./read-body";

// A body read as JSON, with its length declared and without one (sent in chunks), as any
// runtime's Request carries it; tests/server and server/http-basics.test.ts read it over HTTP.

function chunks(parts: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(encoder.encode(part));
      controller.close();
    },
  });
}

function sized(body: string, type = "application/json"): Request {
  return new Request("http://prepick.test/agent/chat", {
    method: "POST",
    headers: { "content-type": type, "content-length": String(Buffer.byteLength(body)) },
    body,
  });
}

function unsized(parts: string[], type = "application/json"): Request {
  return new Request("http://prepick.test/agent/chat", {
    method: "POST",
    headers: { "content-type": type },
    body: chunks(parts),
    duplex: "half",
  } as RequestInit);
}

describe("readJsonBody", () => {
  it("reads JSON with a length or in chunks, and an empty body as {}", async () => {
    expect(await readJsonBody(sized('{"a":[1,"é"]}'))).toEqual({ ok: true, value: { a: [1, "é"] } });
    expect(await readJsonBody(unsized(['{"a":[1,', '"é"]}']))).toEqual({ ok: true, value: { a: [1, "é"] } });
    expect(await readJsonBody(sized(""))).toEqual({ ok: true, value: {} });
    expect(await readJsonBody(unsized([]))).toEqual({ ok: true, value: {} });
  });

  it("refuses a body past the limit, declared or counted as it comes", async () => {
    const refused = { ok: false, status: 413, error: "The body is larger than 16 bytes." };
    expect(await readJsonBody(sized('{"pad":"0123456789"}'), 16)).toEqual(refused);
    expect(await readJsonBody(unsized(['{"pad":', '"0123456789"}']), 16)).toEqual(refused);
    // A length that understates the body does not let more through.
    const understated = new Request("http://prepick.test/", {
      method: "POST",
      headers: { "content-type": "application/json", "content-length": "2" },
      body: '{"pad":"0123456789"}',
    });
    expect(await readJsonBody(understated, 16)).toEqual(refused);
  });

  it("refuses other content types (415), malformed JSON (400) and text the store cannot hold (400)", async () => {
    for (const request of [sized('{"a":1}', "text/plain"), unsized(['{"a":1}'], "text/plain")]) {
      expect(await readJsonBody(request)).toEqual({
        ok: false,
        status: 415,
        error: 'The body must be JSON sent with content-type: application/json, not "text/plain".',
      });
    }
    for (const request of [sized("{nope"), unsized(["{no", "pe"])]) {
      const read = await readJsonBody(request);
      expect(read).toMatchObject({ ok: false, status: 400 });
      expect(read.ok ? "" : read.error).toMatch(/^The body is not valid JSON: /);
    }
    expect(await readJsonBody(sized('{"text":"a\\u0000b"}'))).toEqual({
      ok: false,
      status: 400,
      error:
        "text holds NUL (U+0000) at character 2; text may not contain NUL or a UTF-16 surrogate without its pair",
    });
  });
});
