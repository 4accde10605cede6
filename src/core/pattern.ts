import { RE2JS } from "re2js";

const compiled = new Map<string, RE2JS | Error>();
const CACHE_LIMIT = 256;

function compile(pattern: string): RE2JS | Error {
  const cached = compiled.get(pattern);
  if (cached !== undefined) return cached;
  let result: RE2JS | Error;
  try {
    result = RE2JS.compile(pattern);
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
 */
export function patternProblem(pattern: string): string | undefined {
  const result = compile(pattern);
  return result instanceof Error ? result.message : undefined;
}

/**
 * Whether the whole of `value` matches `pattern`, in time linear in the value's length, so a
 * model-authored pattern can never hang the server or the page. An invalid pattern matches nothing.
 */
export function matchesPattern(pattern: string, value: string): boolean {
  const result = compile(pattern);
  return !(result instanceof Error) && result.matches(value);
}
