import { describe, expect, it } from "vitest";
import { matchesPattern, patternProblem } from "./pattern";

describe("matchesPattern", () => {
  it("matches the whole value, not a part of it", () => {
    expect(matchesPattern("[A-Z]{3}", "ABC")).toBe(true);
    expect(matchesPattern("[A-Z]{3}", "xABCx")).toBe(false);
    expect(matchesPattern("a|b", "ab")).toBe(false);
  });

  it("matches nothing with a pattern that does not compile", () => {
    expect(patternProblem("(unclosed")).toBeDefined();
    expect(matchesPattern("(unclosed", "(unclosed")).toBe(false);
    expect(patternProblem("^[a-z]+$")).toBeUndefined();
  });

  it("refuses backreferences and lookaround, which need backtracking", () => {
    expect(patternProblem("(a)\\1")).toBeDefined();
    expect(patternProblem("a(?=b)")).toBeDefined();
  });

  it("answers a pattern built for catastrophic backtracking on a long value", () => {
    const value = `${"a".repeat(50_000)}!`;
    expect(matchesPattern("(a+)+$", value)).toBe(false);
    expect(matchesPattern("(a|aa)*", "a".repeat(50_000))).toBe(true);
  });
});
