import { describe, expect, it, vi } from "vitest";
import { matchesPattern, patternEngineReady, patternProblem } from "./pattern";

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
    const value = `${"a".repeat(50_000)}!`;
    expect(matchesPattern("(a+)+$", value)).toBe(false);
    expect(matchesPattern("(a|aa)*", "a".repeat(50_000))).toBe(true);
  });
});
