import type { RE2JS } from "re2js";

let engine: typeof RE2JS | undefined;
let loading: Promise<void> | undefined;
const compiled = new Map<string, RE2JS | Error>();
const CACHE_LIMIT = 256;

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
  } catch (error) {
    result = error instanceof Error ? error : new Error(String(error));
  }
  // Model-authored patterns are unbounded in number; keep the cache from growing with them.
  if (compiled.size >= CACHE_LIMIT) compiled.clear();
  compiled.set(pattern, result);
  return result;
}

/**
 * Why a pattern cannot be used, or `undefined` when it compiles. Patterns use RE2 syntax
 * (no backreferences or lookaround), which is what keeps matching linear in the value's length.
 * Throws while the engine is not loaded ({@link loadPatternEngine}).
 */
export function patternProblem(pattern: string): string | undefined {
  const result = compile(pattern);
  return result instanceof Error ? result.message : undefined;
}

/**
 * Whether the whole of `value` matches `pattern`, in time linear in the value's length, so a
 * model-authored pattern can never hang the server or the page. An invalid pattern matches nothing.
 * Throws while the engine is not loaded ({@link loadPatternEngine}).
 */
export function matchesPattern(pattern: string, value: string): boolean {
  const result = compile(pattern);
  return !(result instanceof Error) && result.matches(value);
}
