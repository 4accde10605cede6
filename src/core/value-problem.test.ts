import { describe, expect, it } from "vitest";
import { validateAnswers } from "./answers";
import { checkQuestions } from "./check-questions";
import { coerceAnswer } from "./coerce-answer";
import { typed } from "./question.fixture";
import { isOnStep, valueProblem } from "./value-problem";

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
