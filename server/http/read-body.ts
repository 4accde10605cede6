import { findUnstorable, type UnstorableText } from "../store/json";

/** The largest request body the server reads. */
export const MAX_BODY_BYTES = 64 * 1024;

/** A body read as JSON, or the response to refuse it with. */
export type ReadBody = { ok: true; value: unknown } | { ok: false; status: 400 | 413 | 415; error: string };

/** The refusal of text the store cannot hold, naming the field (`field`, e.g. `message.parts[0].text`). */
export function unstorableError(
  field: string,
  found: Pick<UnstorableText, "inKey" | "position" | "character">,
): string {
  return (
    `${found.inKey ? `the key ${field}` : field} holds ${found.character} at character ${found.position}; ` +
    "text may not contain NUL or a UTF-16 surrogate without its pair"
  );
}

/** Whether a content type is JSON (`application/json`, or any `+json` type). */
export function isJsonType(header: string | null | undefined): boolean {
  if (header === "application/json") return true;
  const type = header?.split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || type.endsWith("+json");
}

const decoder = new TextDecoder();

/**
 * A body's text, or undefined past `limit` bytes. A body with a declared length (which the Node
 * server holds it to, and which is within the limit) is read whole: @hono/node-server reads it
 * straight from the socket, where touching `request.body` would build a web stream and a second
 * Request around it; a Request made in the process whose length understates its body is still held
 * to the limit, counted in characters (never more than its bytes). One sent in chunks, without a
 * length, is read as it comes and given up once past the limit.
 */
async function readText(request: Request, sized: boolean, limit: number): Promise<string | undefined> {
  if (sized) {
    const text = await request.text();
    return text.length > limit ? undefined : text;
  }
  if (!request.body) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return decoder.decode(Buffer.concat(chunks));
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
}

/**
 * Reads a request body as JSON, refusing bodies over {@link MAX_BODY_BYTES} (413), other content
 * types (415), malformed JSON (400) and text the store cannot hold (400, naming the field: NUL
 * and lone surrogates), before anything is written. An empty body reads as `{}`.
 */
export async function readJsonBody(request: Request, limit = MAX_BODY_BYTES): Promise<ReadBody> {
  const declared = request.headers.get("content-length");
  const tooLarge = { ok: false, status: 413, error: `The body is larger than ${limit} bytes.` } as const;
  if (Number(declared ?? "0") > limit) return tooLarge;
  const text = await readText(request, declared !== null, limit);
  if (text === undefined) return tooLarge;
  if (text.trim() === "") return { ok: true, value: {} };
  // Refusing other types keeps a cross-site form (text/plain, no preflight) from acting.
  const header = request.headers.get("content-type");
  if (!isJsonType(header)) {
    const type = header?.split(";")[0]?.trim().toLowerCase() ?? "";
    return {
      ok: false,
      status: 415,
      error: `The body must be JSON sent with content-type: application/json, not ${JSON.stringify(type || "none")}.`,
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      status: 400,
      error: `The body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  // Refused whole, wherever it sits: PostgreSQL would refuse it mid-write, after other checks passed.
  // Decoded UTF-8 holds neither NUL nor a lone surrogate unless sent as such or as a `\u` escape.
  if (!text.includes("\\u") && !text.includes("\0")) return { ok: true, value };
  const unstorable = findUnstorable(value);
  if (unstorable)
    return { ok: false, status: 400, error: unstorableError(unstorable.path || "the body", unstorable) };
  return { ok: true, value };
}

/** Whether a value is a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Reads an own property, so `__proto__` and inherited names never answer. */
export function field(body: Record<string, unknown>, name: string): unknown {
  return Object.hasOwn(body, name) ? body[name] : undefined;
}
