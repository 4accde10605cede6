import { describe, expect, it, vi } from "vitest";
import { validateAnswers } from "./answers";
import { checkQuestions } from "./check-questions";
import {
  exceedsPatternValueLimit,
  matchesPattern,
  PATTERN_SIZE_LIMIT,
  PATTERN_VALUE_LIMIT,
  patternEngineReady,
  patternProblem,
} from "./pattern";
import { typed } from "./question.fixture";
import { valueProblem } from "./value-problem";

describe("the pattern engine", () => {
  it("refuses to answer before it is loaded, rather than letting a value through", async () => {
    vi.resetModules();
    const fresh = await import("./pattern");
    expect(fresh.patternEngineReady()).toBe(false);
    const notLoaded = "the pattern engine is not loaded; await loadPatternEngine() first";
    expect(() => fresh.matchesPattern("[a-z]+", "abc")).toThrow(notLoaded);
    expect(() => fresh.patternProblem("[a-z]+")).toThrow(notLoaded);
    const load = fresh.loadPatternEngine();
    expect(fresh.loadPatternEngine()).toBe(load);
    await load;
    expect(fresh.patternEngineReady()).toBe(true);
    expect(fresh.matchesPattern("[a-z]+", "abc")).toBe(true);
  });

  it("is loaded for the unit tests by their setup file", () => {
    expect(patternEngineReady()).toBe(true);
  });
});

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
    const value = `${"a".repeat(2_000)}!`;
    expect(matchesPattern("(a+)+$", value)).toBe(false);
    expect(matchesPattern("(a|aa)*", "a".repeat(2_000))).toBe(true);
  });
});

describe("the cost of one match, bounded", () => {
  it("refuses a pattern that compiles past the size limit, naming the limit", () => {
    expect(PATTERN_SIZE_LIMIT).toBe(128);
    expect(patternProblem("(?:a?){1000}a{1000}")).toBe(
      "it compiles to 3002 instructions, more than the 128 a pattern may take; use fewer or smaller repeats, and min and max for a length",
    );
    expect(matchesPattern("(?:a?){1000}a{1000}", "a".repeat(1000))).toBe(false);
    expect(patternProblem("(?:a?){40}a{40}")).toBeUndefined();
    expect(patternProblem("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")).toBeUndefined();
  });

  it("refuses the pattern when the set is checked", () => {
    const issues = checkQuestions([typed({ type: "text", pattern: "(?:a?){1000}a{1000}" })]);
    expect(issues.map((issue) => issue.message)).toEqual([
      'questions["q"].input.pattern is not a valid pattern: it compiles to 3002 instructions, more than the 128 a pattern may take; use fewer or smaller repeats, and min and max for a length',
    ]);
  });

  it("never runs a pattern on a value over the length limit, and says so with its own rule", () => {
    expect(PATTERN_VALUE_LIMIT).toBe(2048);
    const code = typed({ type: "text", pattern: "a*" });
    expect(valueProblem(code, "a".repeat(2048))).toBeUndefined();
    expect(valueProblem(code, "a".repeat(2049))).toEqual({
      rule: "pattern-length",
      text: "must be at most 2048 characters to be checked against its pattern",
    });
    expect(matchesPattern("a*", "a".repeat(65_536))).toBe(false);
    // The limit counts characters, as text lengths do: 2048 emoji are 4096 UTF-16 units.
    expect(exceedsPatternValueLimit("😀".repeat(2048))).toBe(false);
    expect(exceedsPatternValueLimit("😀".repeat(2049))).toBe(true);
    expect(validateAnswers([code], { q: ["a".repeat(65_536)] }).map((issue) => issue.rule)).toEqual([
      "pattern-length",
    ]);
  });
});

describe("the length a pattern is checked at, in characters", () => {
  it("counts a character outside the basic plane once, though it takes two UTF-16 units", () => {
    const emoji = "😀";
    expect(exceedsPatternValueLimit("a".repeat(PATTERN_VALUE_LIMIT))).toBe(false);
    expect(exceedsPatternValueLimit("a".repeat(PATTERN_VALUE_LIMIT + 1))).toBe(true);
    expect(exceedsPatternValueLimit(emoji.repeat(PATTERN_VALUE_LIMIT))).toBe(false);
    expect(exceedsPatternValueLimit(emoji.repeat(PATTERN_VALUE_LIMIT + 1))).toBe(true);
    expect(exceedsPatternValueLimit("a".repeat(2 * PATTERN_VALUE_LIMIT + 1))).toBe(true);
  });
});
