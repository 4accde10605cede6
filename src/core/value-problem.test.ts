import { describe, expect, it } from "vitest";
import { validateAnswers } from "./answers";
import { checkQuestions } from "./check-questions";
import { coerceAnswer } from "./coerce-answer";
import { PATTERN_VALUE_LIMIT } from "./pattern";
import type { Question } from "./question";
import { typed } from "./question.fixture";
import { countProblem, isCount, isOnStep, valueProblem } from "./value-problem";

describe("a number question's step", () => {
  const seats = typed({ type: "number", min: 1, max: 9, step: 1 });

  it("takes whole numbers with a step of 1, and refuses 2.5 with its own rule", () => {
    expect(valueProblem(seats, "2")).toBeUndefined();
    expect(valueProblem(seats, "9")).toBeUndefined();
    expect(valueProblem(seats, "2.5")).toEqual({ rule: "step", text: "must be a whole number" });
    expect(validateAnswers([seats], { q: ["2.5"] })).toEqual([
      { questionId: "q", rule: "step", value: "2.5", message: 'answers["q"] must be a whole number' },
    ]);
  });

  it("checks the range before the step, so 12.5 reads as too large", () => {
    expect(valueProblem(seats, "12.5")?.rule).toBe("max");
  });

  it("counts steps from min, or from 0 without one", () => {
    const odd = typed({ type: "number", min: 1, step: 2 });
    expect(valueProblem(odd, "3")).toBeUndefined();
    expect(valueProblem(odd, "4")).toEqual({ rule: "step", text: "must be 1 plus a multiple of 2" });
    const halves = typed({ type: "number", step: 0.5 });
    expect(valueProblem(halves, "-1.5")).toBeUndefined();
    expect(valueProblem(halves, "0.3")).toEqual({ rule: "step", text: "must be a multiple of 0.5" });
  });

  it("works in decimals, where binary floating point would be off", () => {
    // 0.3 - 0 is not 3 × 0.1 in floating point, and 1.1 % 0.1 is 0.0999…
    expect(isOnStep(0.3, 0, 0.1)).toBe(true);
    expect(isOnStep(1.1, 0, 0.1)).toBe(true);
    expect(isOnStep(0.35, 0, 0.1)).toBe(false);
    expect(isOnStep(2.15, 0.05, 0.25)).toBe(false);
    expect(isOnStep(2.05, 0.05, 0.5)).toBe(true);
    expect(isOnStep(-0.5, 0, 0.25)).toBe(true);
    expect(isOnStep(12000000000000000000000, 0, 1)).toBe(true);
  });

  it("is a definition issue anywhere but on a number question, or when not above 0", () => {
    const messages = (question: Parameters<typeof checkQuestions>[0][number]) =>
      checkQuestions([question]).map((issue) => issue.message);
    expect(messages(typed({ type: "text", step: 1 }))).toEqual([
      'questions["q"].input.step is only for number questions, not text',
    ]);
    expect(messages(typed({ type: "boolean", step: 1 }))).toEqual([
      'questions["q"].input.step is only for number questions, not boolean',
    ]);
    expect(messages(typed({ type: "number", step: 0 }))).toEqual([
      'questions["q"].input.step must be a number greater than 0, such as 1 for whole numbers',
    ]);
    expect(messages(typed({ type: "number", step: 1 }, { defaults: ["2.5"] }))).toEqual([
      'questions["q"].defaults[0] "2.5" must be a whole number',
    ]);
    expect(messages(seats)).toEqual([]);
  });
});

describe("a datetime question", () => {
  const meeting = typed({ type: "datetime", min: "2026-12-04T09:00", max: "2026-12-04T17:30" });

  it("takes a local date and time written YYYY-MM-DDTHH:mm, within its bounds", () => {
    expect(valueProblem(meeting, "2026-12-04T14:30")).toBeUndefined();
    expect(valueProblem(meeting, "2026-12-04T09:00")).toBeUndefined();
    expect(valueProblem(meeting, "2026-12-04T08:59")).toEqual({
      rule: "min",
      text: "must be at or after 2026-12-04T09:00",
    });
    expect(valueProblem(meeting, "2026-12-04T17:31")?.rule).toBe("max");
  });

  it("refuses what is not a real day and time, or carries a zone or seconds", () => {
    const free = typed({ type: "datetime" });
    for (const value of [
      "tomorrow at 10",
      "2026-12-04",
      "2026-02-30T10:00",
      "2026-12-04T24:00",
      "2026-12-04T10:60",
      "2026-12-04T10:00Z",
      "2026-12-04T10:00:30",
    ]) {
      expect(valueProblem(free, value), value).toEqual({
        rule: "datetime",
        text: "must be a date and time written YYYY-MM-DDTHH:mm",
      });
    }
  });

  it("is written canonically from what a person or a picker gives", () => {
    expect(coerceAnswer(meeting, "2026-12-4 9:05")).toBe("2026-12-04T09:05");
    expect(coerceAnswer(meeting, "2026-12-04T09:05:00")).toBe("2026-12-04T09:05");
    expect(coerceAnswer(meeting, "2026-12-04T09:05:30")).toBe("2026-12-04T09:05:30");
    expect(coerceAnswer(meeting, new Date(2026, 11, 4, 9, 5))).toBe("2026-12-04T09:05");
    expect(validateAnswers([meeting], { q: ["2026-12-4 10:00"] })).toEqual([]);
  });

  it("holds its bounds and defaults to the same form when the set is checked", () => {
    const messages = checkQuestions([
      typed({ type: "datetime", min: "2026-12-04", max: 5 }, { defaults: ["2026-12-04 10:00"] }),
    ]).map((issue) => issue.message);
    expect(messages).toEqual([
      'questions["q"].input.min must be a date and time written YYYY-MM-DDTHH:mm on a datetime question',
      'questions["q"].input.max must be a date and time written YYYY-MM-DDTHH:mm on a datetime question',
      'questions["q"].defaults[0] "2026-12-04 10:00" must be written "2026-12-04T10:00"',
    ]);
    expect(checkQuestions([meeting])).toEqual([]);
  });
});

describe("a url question's schemes", () => {
  const site = typed({ type: "url" });

  it("takes http and https only, unless the question says more", () => {
    expect(valueProblem(site, "https://example.com")).toBeUndefined();
    expect(valueProblem(site, "HTTP://example.com")).toBeUndefined();
    expect(validateAnswers([site], { q: ["javascript:alert(document.domain)"] })).toEqual([
      {
        questionId: "q",
        rule: "scheme",
        value: "javascript:alert(document.domain)",
        message: 'answers["q"] must use the scheme http or https, not javascript',
      },
    ]);
    expect(valueProblem(site, "mailto:ada@example.com")?.rule).toBe("scheme");
    const mail = typed({ type: "url", schemes: ["https", "mailto"] });
    expect(valueProblem(mail, "mailto:ada@example.com")).toBeUndefined();
    expect(valueProblem(mail, "http://example.com")?.text).toBe(
      "must use the scheme https or mailto, not http",
    );
  });

  it("says url, not scheme, for what is no URL at all", () => {
    expect(valueProblem(site, "example.com")?.rule).toBe("url");
    expect(valueProblem(site, "https://例え.jp/パス")?.rule).toBe("url");
  });

  it("never lets a scheme outside http, https and mailto through, even on a question no one checked", () => {
    const unchecked = typed({ type: "url", schemes: ["javascript", "data"] });
    expect(valueProblem(unchecked, "javascript:alert(1)")?.rule).toBe("scheme");
    expect(valueProblem(unchecked, "https://example.com")).toBeUndefined();
  });

  it("refuses a javascript: default, and schemes that are not allowed, when the set is checked", () => {
    const messages = (question: Parameters<typeof checkQuestions>[0][number]) =>
      checkQuestions([question]).map((issue) => issue.message);
    expect(messages(typed({ type: "url" }, { defaults: ["javascript:alert(1)"] }))).toEqual([
      'questions["q"].defaults[0] "javascript:alert(1)" must use the scheme http or https, not javascript',
    ]);
    expect(messages(typed({ type: "url", schemes: ["https", "javascript"] }))).toEqual([
      'questions["q"].input.schemes[1] "javascript" must be one of "http", "https", "mailto"',
    ]);
    expect(messages(typed({ type: "url", schemes: [] }))).toEqual([
      'questions["q"].input.schemes must name at least one scheme',
    ]);
    expect(messages(typed({ type: "text", schemes: ["https"] }))).toEqual([
      'questions["q"].input.schemes are only for url questions, not text',
    ]);
  });
});

// Every bound is inclusive: the value at it passes, the nearest value past it is refused by the
// bound's own rule. A `<` written `<=` (or the reverse) fails here.
describe("every bound, at the bound", () => {
  const rules = (question: Question, values: string[]) =>
    values.map((value) => valueProblem(question, value)?.rule ?? "ok");

  it("numbers: min and max pass, the nearest decimals past them do not", () => {
    const seats = typed({ type: "number", min: 1.5, max: 9.25 });
    expect(rules(seats, ["1.5", "9.25", "1.49", "9.26"])).toEqual(["ok", "ok", "min", "max"]);
    const negative = typed({ type: "number", min: -3, max: -1 });
    expect(rules(negative, ["-3", "-1", "-3.01", "-0.99"])).toEqual(["ok", "ok", "min", "max"]);
  });

  it("dates: the first and last day pass, the day before and the day after do not", () => {
    const day = typed({ type: "date", min: "2026-01-01", max: "2026-12-31" });
    expect(rules(day, ["2026-01-01", "2026-12-31", "2025-12-31", "2027-01-01"])).toEqual([
      "ok",
      "ok",
      "min",
      "max",
    ]);
  });

  it("dates and times: the first and last minute pass, the minute before and after do not", () => {
    const slot = typed({ type: "datetime", min: "2026-03-01T09:00", max: "2026-03-01T17:30" });
    expect(
      rules(slot, ["2026-03-01T09:00", "2026-03-01T17:30", "2026-03-01T08:59", "2026-03-01T17:31"]),
    ).toEqual(["ok", "ok", "min", "max"]);
  });

  it("text lengths, in characters: min and max pass, one fewer and one more do not", () => {
    for (const type of ["text", "textarea"] as const) {
      const name = typed({ type, min: 2, max: 5 });
      expect(rules(name, ["ab", "abcde", "a", "abcdef"])).toEqual(["ok", "ok", "min", "max"]);
      // Counted in characters, not UTF-16 units: five emoji are five characters.
      expect(rules(name, ["😀😀😀😀😀", "😀😀😀😀😀😀"])).toEqual(["ok", "max"]);
    }
    const email = typed({ type: "email", max: 13 });
    expect(rules(email, ["ada@examp.com", "ada@example.c"])).toEqual(["ok", "ok"]);
    expect(rules(email, ["ada@example.com"])).toEqual(["max"]);
    const url = typed({ type: "url", max: 19 });
    expect(rules(url, ["https://example.com", "https://example.com/"])).toEqual(["ok", "max"]);
  });

  it("the length a pattern is checked at: the limit passes, one character more is refused", () => {
    const code = typed({ type: "text", pattern: "a+" });
    expect(rules(code, ["a".repeat(PATTERN_VALUE_LIMIT), "a".repeat(PATTERN_VALUE_LIMIT + 1)])).toEqual([
      "ok",
      "pattern-length",
    ]);
  });

  it("item counts: minItems and maxItems pass, one fewer and one more do not", () => {
    const tools = {
      id: "tools",
      prompt: "Which tools?",
      multiple: true,
      minItems: 2,
      maxItems: 3,
      options: ["a", "b", "c", "d"].map((value) => ({ value, label: value.toUpperCase() })),
    } satisfies Question;
    expect(countProblem(tools, 2)).toBeUndefined();
    expect(countProblem(tools, 3)).toBeUndefined();
    expect(countProblem(tools, 1)?.rule).toBe("min-items");
    expect(countProblem(tools, 4)?.rule).toBe("max-items");
    const issues = (values: string[]) =>
      validateAnswers([tools], { tools: values }).map((issue) => issue.rule);
    expect(issues(["a", "b"])).toEqual([]);
    expect(issues(["a", "b", "c"])).toEqual([]);
    expect(issues(["a"])).toEqual(["min-items"]);
    expect(issues(["a", "b", "c", "d"])).toEqual(["max-items"]);
  });
});

// What each rule says, word for word: the sentence a person and a model read.
describe("each rule's sentence", () => {
  it("names the rule and says what the value must be", () => {
    expect(valueProblem(typed({ type: "number" }), "x")).toEqual({
      rule: "number",
      text: "must be a number written in decimals",
    });
    expect(valueProblem(typed({ type: "number", min: 2 }), "1")).toEqual({
      rule: "min",
      text: "must be at least 2",
    });
    expect(valueProblem(typed({ type: "number", max: 2 }), "3")).toEqual({
      rule: "max",
      text: "must be at most 2",
    });
    expect(valueProblem(typed({ type: "boolean" }), "yes")).toEqual({
      rule: "boolean",
      text: "must be true or false",
    });
    expect(valueProblem(typed({ type: "boolean" }), "false")).toBeUndefined();
    expect(valueProblem(typed({ type: "date" }), "2026-1-1")).toEqual({
      rule: "date",
      text: "must be a date written YYYY-MM-DD",
    });
    const day = typed({ type: "date", min: "2026-01-01", max: "2026-12-31" });
    expect(valueProblem(day, "2025-12-31")).toEqual({ rule: "min", text: "must be on or after 2026-01-01" });
    expect(valueProblem(day, "2027-01-01")).toEqual({ rule: "max", text: "must be on or before 2026-12-31" });
    const slot = typed({ type: "datetime", min: "2026-03-01T09:00", max: "2026-03-01T17:30" });
    expect(valueProblem(slot, "2026-03-01T08:00")).toEqual({
      rule: "min",
      text: "must be at or after 2026-03-01T09:00",
    });
    expect(valueProblem(slot, "2026-03-01T18:00")).toEqual({
      rule: "max",
      text: "must be at or before 2026-03-01T17:30",
    });
    expect(valueProblem(typed({ type: "email" }), "nobody")).toEqual({
      rule: "email",
      text: "must be an email address",
    });
    expect(valueProblem(typed({ type: "text", pattern: "[a-z]+" }), "ABC")).toEqual({
      rule: "pattern",
      text: "must match the pattern [a-z]+",
    });
  });

  it("counts characters in the singular for one, the plural for more", () => {
    expect(valueProblem(typed({ type: "text", min: 1 }), "")).toEqual({
      rule: "min",
      text: "must be at least 1 character",
    });
    expect(valueProblem(typed({ type: "text", min: 3 }), "ab")).toEqual({
      rule: "min",
      text: "must be at least 3 characters",
    });
    expect(valueProblem(typed({ type: "text", max: 1 }), "ab")).toEqual({
      rule: "max",
      text: "must be at most 1 character",
    });
    expect(valueProblem(typed({ type: "text", max: 3 }), "abcd")).toEqual({
      rule: "max",
      text: "must be at most 3 characters",
    });
  });

  it("names the schemes a URL may use: one, two, or a list ending in or", () => {
    const only = typed({ type: "url", schemes: ["https"] });
    expect(valueProblem(only, "http://example.com")).toEqual({
      rule: "scheme",
      text: "must use the scheme https, not http",
    });
    expect(valueProblem(typed({ type: "url" }), "mailto:ada@example.com")).toEqual({
      rule: "scheme",
      text: "must use the scheme http or https, not mailto",
    });
    const three = typed({ type: "url", schemes: ["http", "https", "mailto"] });
    expect(valueProblem(three, "ftp://example.com")).toEqual({
      rule: "scheme",
      text: "must use the scheme http, https or mailto, not ftp",
    });
    expect(valueProblem(three, "mailto:ada@example.com")).toBeUndefined();
  });
});

describe("real calendar days and times", () => {
  const day = typed({ type: "date" });
  const slot = typed({ type: "datetime" });

  it("takes a day that exists and refuses one that does not, month and day alike", () => {
    expect(valueProblem(day, "2024-02-29")).toBeUndefined();
    for (const value of ["2026-02-29", "2026-04-31", "2026-13-01", "2026-00-10", "2026-01-00"]) {
      expect(valueProblem(day, value)?.rule, value).toBe("date");
    }
  });

  it("takes 23:59 and refuses 24:00 and minute 60", () => {
    expect(valueProblem(slot, "2026-03-01T23:59")).toBeUndefined();
    expect(valueProblem(slot, "2026-03-01T23:00")).toBeUndefined();
    expect(valueProblem(slot, "2026-03-01T24:00")?.rule).toBe("datetime");
    expect(valueProblem(slot, "2026-03-01T12:60")?.rule).toBe("datetime");
    expect(valueProblem(slot, "2026-02-30T12:00")?.rule).toBe("datetime");
  });
});

describe("a number question's step, when it has none that counts", () => {
  it("ignores a step of zero, a negative one and an infinite one", () => {
    for (const step of [0, -1, Number.POSITIVE_INFINITY]) {
      expect(valueProblem(typed({ type: "number", step }), "2.5"), String(step)).toBeUndefined();
    }
    expect(valueProblem(typed({ type: "number", step: 1 }), "2.5")?.rule).toBe("step");
  });

  it("counts steps from a negative min in exact decimals", () => {
    const below = typed({ type: "number", min: -1.5, step: 0.5 });
    expect(valueProblem(below, "-1")).toBeUndefined();
    expect(valueProblem(below, "-1.25")).toEqual({
      rule: "step",
      text: "must be -1.5 plus a multiple of 0.5",
    });
    expect(isOnStep(-2.5, -1.5, 1)).toBe(true);
    expect(isOnStep(-2, -1.5, 1)).toBe(false);
  });
});

describe("item counts apply to multiple-choice questions only", () => {
  it("leaves a single-choice question's count alone, and reads a bound of 0", () => {
    const single = typed({ type: "text" }, { minItems: 2, maxItems: 3 });
    expect(countProblem(single, 0)).toBeUndefined();
    expect(countProblem(single, 5)).toBeUndefined();
    const upToNone = { ...typed({ type: "text" }), multiple: true, maxItems: 0 } satisfies Question;
    expect(countProblem(upToNone, 0)).toBeUndefined();
    expect(countProblem(upToNone, 1)).toEqual({
      rule: "max-items",
      text: "must hold at most 0 values, not 1",
    });
    expect(isCount(0)).toBe(true);
    expect(isCount(-1)).toBe(false);
    expect(isCount(1.5)).toBe(false);
    expect(isCount(undefined)).toBe(false);
  });
});

describe("steps from a base of the other sign", () => {
  it("keeps each number's sign: -1 is 0.5 less a step of 1.5, 1 is not", () => {
    expect(isOnStep(-1, 0.5, 1.5)).toBe(true);
    expect(isOnStep(1, 0.5, 1.5)).toBe(false);
  });
});
