import type { RE2JS } from "re2js";

let engine: typeof RE2JS | undefined;
let loading: Promise<void> | undefined;
const compiled = new Map<string, RE2JS | Error>();
const CACHE_LIMIT = 256;

/**
 * The largest compiled pattern allowed, in RE2 program instructions (`programSize()`). Matching
 * costs up to the program's size times the value's length; `[a-z]+(-[a-z]+)*` is 10,
 * `[0-9a-f]{8}` is 9, `(?:a?){1000}a{1000}` is 3,002. bench/pattern-cost.ts measures the cap.
 */
export const PATTERN_SIZE_LIMIT = 128;

/**
 * The longest value, in characters, a pattern is run against; a longer one is refused before
 * matching (rule `pattern-length`). With {@link PATTERN_SIZE_LIMIT} it bounds one match to a few
 * milliseconds on the server and in the page.
 */
export const PATTERN_VALUE_LIMIT = 2048;

/** Whether `value` is longer than {@link PATTERN_VALUE_LIMIT} characters (code points). */
export function exceedsPatternValueLimit(value: string): boolean {
  if (value.length <= PATTERN_VALUE_LIMIT) return false;
  // A code point takes at most two UTF-16 units, so only lengths in between need counting.
  if (value.length > 2 * PATTERN_VALUE_LIMIT) return true;
  let count = 0;
  for (const _ of value) if (++count > PATTERN_VALUE_LIMIT) return true;
  return false;
}

/**
 * Loads the linear-time pattern engine (re2js). It is fetched on first need rather than bundled up
 * front, so a page without pattern questions never downloads it. Safe to call again: every call
 * shares one load, and a failed load is tried afresh by the next call.
 */
export function loadPatternEngine(): Promise<void> {
  loading ??= import("re2js").then(
    (module) => {
      engine = module.RE2JS;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** Whether {@link loadPatternEngine} has finished, so patterns can be checked now. */
export function patternEngineReady(): boolean {
  return engine !== undefined;
}

function compile(pattern: string): RE2JS | Error {
  // Never let a value through unchecked: without the engine, a pattern cannot be answered at all.
  if (!engine) throw new Error("the pattern engine is not loaded; await loadPatternEngine() first");
  const cached = compiled.get(pattern);
  if (cached !== undefined) return cached;
  let result: RE2JS | Error;
  try {
    result = engine.compile(pattern);
    const size = result.programSize();
    if (size > PATTERN_SIZE_LIMIT) {
      result = new Error(
        `it compiles to ${size} instructions, more than the ${PATTERN_SIZE_LIMIT} a pattern may take; use fewer or smaller repeats, and min and max for a length`,
      );
    }
  } catch (error) {
    result = error instanceof Error ? error : new Error(String(error));
  }
  // Model-authored patterns are unbounded in number; keep the cache from growing with them.
  if (compiled.size >= CACHE_LIMIT) compiled.clear();
  compiled.set(pattern, result);
  return result;
}

/**
 * Why a pattern cannot be used, or `undefined` when it compiles within {@link PATTERN_SIZE_LIMIT}.
 * Patterns use RE2 syntax (no backreferences or lookaround), which is what keeps matching linear
 * in the value's length.
 * Throws while the engine is not loaded ({@link loadPatternEngine}).
 */
export function patternProblem(pattern: string): string | undefined {
  const result = compile(pattern);
  return result instanceof Error ? result.message : undefined;
}

/**
 * Whether the whole of `value` matches `pattern`, in time linear in the value's length, so a
 * model-authored pattern can never hang the server or the page. An invalid or oversized pattern
 * matches nothing, nor does a value over {@link PATTERN_VALUE_LIMIT}, which is never run.
 * Throws while the engine is not loaded ({@link loadPatternEngine}).
 */
export function matchesPattern(pattern: string, value: string): boolean {
  const result = compile(pattern);
  return !(result instanceof Error) && !exceedsPatternValueLimit(value) && result.matches(value);
}
