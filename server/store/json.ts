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

/**
 * The one serializer of every value the store writes as a `jsonb` parameter: each statement
 * passes `json(value)` and casts it with `::jsonb`. What a model or a tool wrote is stored with
 * each NUL and lone surrogate replaced by U+FFFD, so odd output never fails a run; what a
 * request carries was refused before it got here (see `findUnstorable`).
 */
export const json = (value: unknown) => JSON.stringify(value ?? null, storableReplacer);

const utf8 = new TextEncoder();

/** PostgreSQL's `jsonb` key order: shorter keys (in UTF-8 bytes) first, then byte by byte. */
function jsonbKeyOrder(a: string, b: string): number {
  const left = utf8.encode(a);
  const right = utf8.encode(b);
  if (left.length !== right.length) return left.length - right.length;
  for (let index = 0; index < left.length; index++) {
    const difference = (left[index] as number) - (right[index] as number);
    if (difference !== 0) return difference;
  }
  return 0;
}

/** Rebuilds every object of a parsed JSON value with its keys in `jsonb`'s order. */
function inJsonbOrder(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(inJsonbOrder);
  if (typeof value !== "object" || value === null) return value;
  const keys = Object.keys(value).sort(jsonbKeyOrder);
  return Object.fromEntries(keys.map((key) => [key, inJsonbOrder((value as Record<string, unknown>)[key])]));
}

/**
 * A value exactly as the store gives it back once written with {@link json} into a `jsonb`
 * column: storable strings, and every object's keys in `jsonb`'s order (which is not the order
 * they were written in). A replay reads that, so a first run that must see what a replay will
 * (the journal's results) reads this.
 */
export function asStored<T>(value: T): T {
  return inJsonbOrder(JSON.parse(json(value))) as T;
}
