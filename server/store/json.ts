// PostgreSQL's text refuses NUL (U+0000), and its jsonb refuses NUL and UTF-16 surrogates without
// their pair (JavaScript strings may hold both): this file is where the store meets that rule.

const REPLACEMENT = "\uFFFD";

/** Whether a string can be stored as text or inside jsonb: no NUL, no lone surrogate. */
export function isStorable(text: string): boolean {
  return text.isWellFormed() && !text.includes("\0");
}

/** The text with each NUL and lone surrogate replaced by U+FFFD, as a decoder replaces bad bytes. */
export function storable(text: string): string {
  return isStorable(text) ? text : text.toWellFormed().replaceAll("\0", REPLACEMENT);
}

/** A string in a value that the store cannot hold: where it is, and its first bad character. */
export interface UnstorableText {
  /** The field's path, e.g. `message.parts[0].text`, or `answers["a b"]` for a key. */
  path: string;
  /** Whether the bad character is in an object's key rather than in a string value. */
  inKey: boolean;
  /** The bad character's position in the string, counted in characters (code points) from 1. */
  position: number;
  /** What the bad character is, e.g. `NUL (U+0000)` or `a lone surrogate (U+D800)`. */
  character: string;
}

function firstBad(text: string): { position: number; character: string } | undefined {
  let position = 0;
  for (const character of text) {
    position += 1;
    const code = character.codePointAt(0) ?? 0;
    if (code === 0) return { position, character: "NUL (U+0000)" };
    if (code >= 0xd800 && code <= 0xdfff) {
      return { position, character: `a lone surrogate (U+${code.toString(16).toUpperCase()})` };
    }
  }
  return undefined;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function keyPath(path: string, key: string): string {
  if (IDENTIFIER.test(key)) return path === "" ? key : `${path}.${key}`;
  // JSON.stringify writes a NUL or lone surrogate as a \u escape, so the path itself is readable.
  return `${path}[${JSON.stringify(key)}]`;
}

/**
 * The first string or key in a parsed JSON value that the store cannot hold, depth first in
 * document order; undefined when every one can be stored. A loop rather than recursion: a body of
 * 20 000 nested arrays is valid JSON.
 */
export function findUnstorable(value: unknown, path = ""): UnstorableText | undefined {
  const pending: [unknown, string][] = [[value, path]];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const [item, at] = next;
    if (typeof item === "string") {
      const bad = firstBad(item);
      if (bad) return { path: at, inKey: false, ...bad };
    } else if (Array.isArray(item)) {
      for (let index = item.length - 1; index >= 0; index--) pending.push([item[index], `${at}[${index}]`]);
    } else if (typeof item === "object" && item !== null) {
      const entries = Object.entries(item);
      for (const [key] of entries) {
        const bad = firstBad(key);
        if (bad) return { path: keyPath(at, key), inKey: true, ...bad };
      }
      for (const [key, child] of entries.reverse()) pending.push([child, keyPath(at, key)]);
    }
  }
  return undefined;
}

/** A value's strings and keys made storable, for JSON.stringify. */
function storableReplacer(_key: string, value: unknown): unknown {
  if (typeof value === "string") return storable(value);
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    const keys = Object.keys(value);
    if (keys.every(isStorable)) return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [storable(key), item]));
  }
  return value;
}

// What JSON.stringify writes for a NUL (`\u0000`) or a lone surrogate (`\ud800`–`\udfff`): it
// escapes both, and writes a surrogate pair as its two characters. A backslash before the escape
// may itself be escaped text (`\\u0000` is the six characters `\u0000`), which only costs the slow path.
const SUSPECT = /\\u(?:0000|d[89a-f][0-9a-f]{2})/i;

/**
 * The one serializer of every value the store writes as a `jsonb` parameter: each statement
 * passes `json(value)` and casts it with `::jsonb`. What a model or a tool wrote is stored with
 * each NUL and lone surrogate replaced by U+FFFD, so odd output never fails a run; what a
 * request carries was refused before it got here (see `findUnstorable`). A value is serialized
 * once, by V8's fast path; only text whose JSON holds one of those escapes is serialized again,
 * with the replacer that makes it storable.
 */
export function json(value: unknown): string {
  const text = JSON.stringify(value ?? null);
  // Most texts hold no escape at all: a plain search rules them out faster than the pattern.
  return text.includes("\\u") && SUSPECT.test(text) ? JSON.stringify(value ?? null, storableReplacer) : text;
}

const serialized = new WeakMap<object, string>();

/**
 * `json(value)` of an object, kept for as long as the object lives: a frame streamed to followers
 * before it is stored, then stored, is serialized once, and so is a checkpoint the journal
 * serialized to read back.
 */
export function jsonOnce(value: object): string {
  let text = serialized.get(value);
  if (text === undefined) {
    text = json(value);
    serialized.set(value, text);
  }
  return text;
}

/**
 * A JSON array of objects, each serialized once: the text {@link jsonOnce} kept for it, or made
 * here and not kept. Keeping costs more than making a small value's text (an entry in a
 * `WeakMap`, which the garbage collector must also visit), and what a write stores is serialized
 * again only for a follower (`RunFeeds`), which keeps it.
 */
export function jsonArrayOnce(values: readonly object[]): string {
  return `[${values.map((value) => serialized.get(value) ?? json(value)).join(",")}]`;
}

function isAscii(text: string): boolean {
  for (let index = 0; index < text.length; index++) if (text.charCodeAt(index) > 0x7f) return false;
  return true;
}

// jsonb keeps an object's keys sorted: shorter first, then by their UTF-8 bytes.
const encoder = new TextEncoder();
function jsonbKeyOrder(a: string, b: string): number {
  // Nearly every key is ASCII, whose characters are its bytes: no encoding needed to compare them.
  if (isAscii(a) && isAscii(b)) {
    if (a.length !== b.length) return a.length - b.length;
    return a < b ? -1 : a > b ? 1 : 0;
  }
  const left = encoder.encode(a);
  const right = encoder.encode(b);
  if (left.length !== right.length) return left.length - right.length;
  for (let index = 0; index < left.length; index++) {
    const diff = (left[index] as number) - (right[index] as number);
    if (diff !== 0) return diff;
  }
  return 0;
}

/**
 * Parsed JSON with every object's keys in the order `jsonb` gives them back, so a value the run
 * goes on with reads exactly as a replay will read it from the journal (a key order a model sees
 * in a prompt must not change across a crash).
 */
export function inJsonbOrder<T>(value: T): T {
  if (Array.isArray(value)) return value.map(inJsonbOrder) as T;
  if (typeof value !== "object" || value === null) return value;
  const keys = Object.keys(value).sort(jsonbKeyOrder);
  const ordered: Record<string, unknown> = {};
  for (const key of keys) ordered[key] = inJsonbOrder((value as Record<string, unknown>)[key]);
  return ordered as T;
}
