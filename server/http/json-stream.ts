/** How many bytes of JSON one chunk of the response holds, at most about. */
const CHUNK_BYTES = 64 * 1024;

/** How long a client may leave a chunk unread before its response is cut, by default. */
export const STALL_MS = 30_000;

/** What a streamed JSON response is made of. */
export interface JsonStreamOptions {
  /** The JSON text in pieces, in order; read only as fast as the client takes it. */
  pieces: AsyncIterable<string>;
  /** Extra response headers. */
  headers?: Record<string, string>;
  /** How long a chunk may wait unread before the response is cut (default {@link STALL_MS}). */
  stallMs?: number;
  /** Ends the response when the server closes. */
  closing?: AbortSignal;
}

/**
 * A `200 application/json` response written as it is produced, so a large body is never held
 * whole: pieces are gathered into chunks of about 64 KiB, and the next chunk is produced only when
 * the client has taken the last one (the Node server reads the body only as the socket drains).
 * A client that leaves a chunk unread for `stallMs` has its response cut, so it holds neither
 * memory nor the work behind the body; what was read is simply an unfinished JSON text.
 */
export function jsonStreamResponse(options: JsonStreamOptions): Response {
  const encoder = new TextEncoder();
  const iterator = options.pieces[Symbol.asyncIterator]();
  const stallMs = options.stallMs ?? STALL_MS;
  let stall: ReturnType<typeof setTimeout> | undefined;
  let finished = false;
  const finish = () => {
    finished = true;
    clearTimeout(stall);
    options.closing?.removeEventListener("abort", onClosing);
    void iterator.return?.();
  };
  let onClosing = () => {};
  const body = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        onClosing = () => {
          if (finished) return;
          finish();
          controller.error(new Error("The server is closing."));
        };
        options.closing?.addEventListener("abort", onClosing, { once: true });
      },
      async pull(controller) {
        clearTimeout(stall);
        let chunk = "";
        try {
          while (chunk.length < CHUNK_BYTES) {
            const next = await iterator.next();
            if (next.done) {
              if (chunk !== "") controller.enqueue(encoder.encode(chunk));
              finish();
              controller.close();
              return;
            }
            chunk += next.value;
          }
        } catch (error) {
          finish();
          controller.error(error);
          return;
        }
        if (finished) return;
        controller.enqueue(encoder.encode(chunk));
        // Nothing pulls again until the client took this chunk; if it never does, stop here.
        stall = setTimeout(() => {
          if (finished) return;
          finish();
          controller.error(new Error(`The client read nothing for ${stallMs} ms; its response was cut.`));
        }, stallMs);
        stall.unref?.();
      },
      cancel() {
        finish();
      },
    },
    { highWaterMark: 0 },
  );
  return new Response(body, {
    status: 200,
    headers: { "content-type": "application/json; charset=utf-8", ...options.headers },
  });
}
